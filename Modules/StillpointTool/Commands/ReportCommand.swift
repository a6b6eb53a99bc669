import ArgumentParser
import Foundation
import Logging
import PracticeLog
import StillpointCore
import StillpointManifest
import StillpointReport
import StillpointStatistics

/// `stillpoint report`: runs a manifest's statistics against a store and renders the report.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Compute the statistics of a manifest and print the report.",
        discussion: """
            Each statistic runs in its own background context, concurrently; in a terminal the report fills in \
            line by line as each one completes (with standard output not a terminal, those lines go to standard \
            error and standard output gets the report alone). Ctrl-C stops the running statistics cleanly, prints the report \
            with the unfinished ones marked cancelled, and exits with status 130, within a second whatever the store \
            is waiting for; a second Ctrl-C exits at once. Otherwise the exit status is 0 \
            only when every statistic succeeded; when the store itself failed (a server that cancelled a \
            statement, or went away), no report is written: the store's error is said on standard error, with its \
            own status.

            The report is written in each of the manifest's output.formats, to its output.path (relative to the \
            manifest, one file per format: reports/practice.html, reports/practice.json), or to standard output \
            without one; --format and --output override them.

            With --watch, the report is refreshed when the store changes (on a terminal, in place of the one before); changes saved while a refresh runs (a \
            large import) are merged into the one next refresh, so the report keeps up. Ctrl-C ends the watch (and \
            cancels a refresh that is running); the exit status is then that of the last complete report printed. \
            A SQLite store that is removed, or replaced by another file, while it is watched ends the watch with a \
            line on standard error and exit status 66: run the command again to watch a new store.

            Examples:
              stillpoint report
              stillpoint report --config Config/examples/yoga-only.yaml --store my.sqlite
              stillpoint report --format json --as-of 2024-03-15T12:00:00Z
              stillpoint report --format html --output practice.html
              stillpoint report --watch
            """)

    @Option(name: [.customLong("config"), .customLong("manifest")], help: ArgumentHelp("The manifest (YAML) of statistics to run.", discussion: "Without it, the built-in default manifest (Config/default.yaml).", valueName: "file"))
    var config: String?

    @OptionGroup var storeOption: StoreOption
    @OptionGroup var practitionerOption: PractitionerOption

    @Option(help: ArgumentHelp("The report's format: \(ReportFormat.argumentList(ToolModules.renderers.formats)).", discussion: "Without it, the manifest's output.formats (text by default).", valueName: "format"))
    var format: String?

    @Option(name: .customLong("as-of"), help: ArgumentHelp("Make the report as of this ISO 8601 instant, e.g. 2024-03-15T12:00:00Z.", valueName: "instant"))
    var asOf: String?

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output; - is standard output.", discussion: "Without it, the manifest's output.path. With several formats, each gets its own file: the path plus the format's extension.", valueName: "file"))
    var output: String?

    @Flag(help: "Keep the report open and recompute the statistics a change to the store affects, including changes made by another process.")
    var watch = false

    @Flag(name: .customLong("all-practitioners"), help: "One report per practitioner of the store, one JSON line each, in id order (with --format jsonl).")
    var allPractitioners = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if allPractitioners {
            guard format == Self.linesFormat, !watch else {
                throw ValidationError("--all-practitioners writes JSON Lines: add --format \(Self.linesFormat), without --watch")
            }
        } else if format == Self.linesFormat {
            throw ValidationError("--format \(Self.linesFormat) is the format of --all-practitioners; add it, or use one of: \(ReportFormat.argumentList(ToolModules.renderers.formats))")
        }
        if let format, format != Self.linesFormat, ReportFormat(argument: format, among: ToolModules.renderers.formats) == nil {
            throw ValidationError("'\(format)' is not a report format; use one of: \(ReportFormat.argumentList(ToolModules.renderers.formats))")
        }
        if let asOf, SessionInstant.parse(asOf) == nil {
            throw ValidationError("--as-of '\(asOf)' is not an instant that exists; write \(ISOInstant.expectedForm)")
        }
    }

    func run() async throws {
        let logger = global.bootstrapLogging()
        var manifest = try loadManifest()
        // The manifest's `store:`, a file relative to the manifest or a PostgreSQL URI as written.
        let manifestStore = manifest.store.flatMap { StoreOption.isServerURI($0) ? $0 : manifest.storeURL?.path }
        let destinations = ReportDestination.plan(formats: format.flatMap { ReportFormat(argument: $0, among: ToolModules.renderers.formats) }.map { [$0] },
                                                  output: output, manifestFormats: manifest.output.formats,
                                                  manifestPath: manifest.outputPath)
        // Every file is checked before any work: none may be the store, or in a folder that cannot be written.
        for destination in destinations where !destination.isStandardOutput {
            try storeOption.refuse(output: destination.path, option: output == nil ? "the manifest's output.path" : "--output",
                                   fallback: manifestStore)
        }
        if let asOf, let instant = SessionInstant.parse(asOf) { manifest.environment.asOf = instant }
        let entries = try manifest.prepare(modules: ToolModules.current)
        let container = try await storeOption.open(fallback: manifestStore, logger: logger)
        if allPractitioners { return try await writeAllPractitioners(entries, environment: manifest.environment, from: container) }
        // With --practitioner, the runner keeps that practitioner's digest (as PractitionerReports does), so that a
        // watch re-runs and re-renders nothing for other practitioners' changes.
        let practitioner = try await practitionerOption.scope(container)
        let runner = ReportRunner(container: container, practitioner: practitioner, log: { logger.info("\($0)") })
        // Watching starts before the first report, so that a change saved while it runs is not missed.
        let storeWatch = watch ? StoreWatch(container) : nil
        if let storeWatch { ServerNotices.install(on: container) { storeWatch.markReplaced() } }
        let interrupt = InterruptHandler {
            runner.cancel()
            storeWatch?.stop()
        }
        defer { withExtendedLifetime(interrupt) {} }
        // A SQLite store removed or replaced while it is watched ends the watch: nothing will change it any more.
        let removal = storeWatch.flatMap { storeWatch in StoreRemovalWatch(container) { _ in storeWatch.stop() } }
        defer { removal?.cancel() }

        // A text report on standard output fills in line by line as statistics complete, then prints whole.
        let showsLive = destinations.contains { $0.format == .text && $0.isStandardOutput }
        let live: LiveReport? = showsLive ? await MainActor.run { LiveReport.make() } : nil
        var report = await runner.run(entries, environment: manifest.environment) { event in
            live?.show(event)
        }
        // After Ctrl-C, no new statement: one could wait on the lock that held the cancelled ones.
        if !interrupt.wasInterrupted {
            // The store failed, not a statistic (the server cancelled a statement, or went away): no report of
            // failures, but the store's own message and status.
            if let failure = runner.lastStoreFailure { throw failure }
            report.notice = try await Report.demoNotice(for: container, asOf: report.asOf)
        }
        let screen = WatchScreen(output: .standardOutput())
        try deliver(report, to: destinations, screen: screen, replacing: false)
        if let storeWatch, !interrupt.wasInterrupted {
            Output.printError("watching the store for changes; Ctrl-C to stop")
            let follower = ReportWatch(runner: runner, manifest: manifest, modules: ToolModules.current, entries: entries,
                                       pinsAsOf: asOf != nil, log: { logger.info("\($0)") })
            report = try await follower.follow(storeWatch, from: report, isStopped: { interrupt.wasInterrupted }) { refreshed in
                try deliver(refreshed, to: destinations, screen: screen, replacing: true)
                // The cleared screen took the hint with it.
                if screen.output.isTerminal { Output.printError("watching the store for changes; Ctrl-C to stop") }
            }
            if let change = removal?.change, !interrupt.wasInterrupted {
                throw StoreRemovalWatch.failure(change, path: container.location.displayPath)
            }
            if storeWatch.wasReplaced { throw ServerNotices.replacedFailure(of: container) }
            Output.printError("stopped watching")
        }
        guard !report.succeeded else { return }
        let cancelled = report.entries.filter { if case .cancelled = $0.outcome { true } else { false } }.count
        if interrupt.wasInterrupted && cancelled > 0 {
            Output.printError("stopped by Ctrl-C: \(cancelled) of \(report.entries.count) statistics cancelled")
            throw ExitCode(130)
        }
        throw ExitCode(1)
    }

    /// The manifest, checked in full: its text and its entries together, so that a broken manifest lists the
    /// same problems here as `stillpoint validate` does.
    private func loadManifest() throws -> Manifest {
        if let config {
            let url = URL(fileURLWithPath: (config as NSString).expandingTildeInPath)
            let problems = Manifest.validate(contentsOf: url, modules: ToolModules.current, formats: ToolModules.renderers.formats)
            guard problems.isEmpty else { throw ManifestErrors(problems) }
            return try Manifest.load(contentsOf: url, formats: ToolModules.renderers.formats)
        }
        return try Manifest(yaml: DefaultManifest.yaml, file: "the default manifest")
    }

    /// Writes the report in each format to its destination; on a watched terminal, a report on standard
    /// output replaces the one before it on screen (``WatchScreen``).
    private func deliver(_ report: Report, to destinations: [ReportDestination], screen: WatchScreen, replacing: Bool) throws {
        for destination in destinations {
            // Every format the plan holds is one of these renderers', so this fails only on a bug.
            guard let renderer = ToolModules.renderers.renderer(for: destination.format) else {
                throw ToolFailure("no renderer writes the report format '\(destination.format)'; this is a bug in the tool", status: .software)
            }
            let rendered = renderer.render(report)
            if destination.isStandardOutput {
                // Several formats on standard output follow each other; only the first clears the screen.
                screen.show(rendered, replacing: replacing && destination == destinations.first { $0.isStandardOutput })
            } else {
                let written = try Output.write(rendered, to: destination.path)
                Output.printError("wrote the \(destination.format) report to \(written)")
            }
        }
    }
}
