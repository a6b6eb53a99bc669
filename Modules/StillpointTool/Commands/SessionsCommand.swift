import ArgumentParser
import Foundation
import PracticeLog
import StillpointCore
import StillpointReport

/// `stillpoint sessions`: the latest sessions of a store, once or kept current (`--live`) while another process
/// imports: live results on the view context, fed by the store's change log.
struct SessionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "Show the latest sessions of a store, once or kept current as they change.",
        discussion: """
            Latest first. With --live the list stays open and follows every change to the store, including an \
            import running in another process: on a terminal it is redrawn in place, with + before a new session, \
            ~ before a changed one and > before one that moved; anywhere else each new state is printed after the \
            one before, under a line that starts with "== snapshot". Ctrl-C (or SIGTERM) ends it. A change costs \
            a read of the changed sessions, not of the list. A SQLite store that is removed, or replaced by another \
            file, while it is followed ends the list with a line on standard error and exit status 66: run the \
            command again to follow a new store.

            Examples:
              stillpoint sessions --store my.sqlite
              stillpoint sessions --live --limit 30 --where "kind == 'yoga'" --store my.sqlite
            """)

    @Option(parsing: .unconditional, help: ArgumentHelp("How many sessions to show, from 1 to 10,000.", valueName: "count"))
    var limit = 20

    @Option(name: .customLong("where"), help: ArgumentHelp("Show only sessions that match a predicate in Core Data's format, e.g. \"kind == 'yoga'\".", valueName: "predicate"))
    var predicate: String?

    @Flag(help: "Keep the list open and current as sessions are imported, changed or removed, by this or another process.")
    var live = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --live, stop after showing this many states of the list (the first included).", valueName: "count"))
    var snapshots: Int?

    @OptionGroup var storeOption: StoreOption
    @OptionGroup var practitionerOption: PractitionerOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard (1...10_000).contains(limit) else { throw ValidationError("--limit \(limit) is out of range; use 1 to 10,000") }
        if let snapshots {
            guard live else { throw ValidationError("--snapshots needs --live") }
            guard snapshots >= 1 else { throw ValidationError("--snapshots \(snapshots) is out of range; use 1 or more") }
        }
    }

    func run() async throws {
        let logger = global.bootstrapLogging()
        var request = FetchRequest(Session.self, sortedBy: [.descending(Session.start)], limit: limit)
        request.predicate = try predicate.map { try Self.parse($0, for: Session.entity, in: storeOption.sqlDialect) }
        let container = try await storeOption.open(logger: logger)
        try await practitionerOption.scope(container)
        let context = container.viewContext
        let view = SessionsView(output: .standardOutput())
        guard live else {
            let results = try await context.liveResults(for: request)
            view.show(results.latest, live: false)
            await results.stop()
            return
        }
        // Merging is on, and other processes are watched, before the first read: nothing saved after it is missed.
        await context.setAutomaticallyMergesChangesFromParent(true)
        // A store replaced under the list ends it: the new store's changes would be added to the old one's rows.
        let following = LockedState<(results: LiveResults?, replaced: Bool)>((nil, false))
        ServerNotices.install(on: container) {
            let results = following.withLock { state in
                state.replaced = true
                return state.results
            }
            if let results { Task { await results.stop() } }
        }
        let watcher = container.observeOtherProcesses(every: .milliseconds(250))
        defer { watcher.cancel() }
        let results = try await context.liveResults(for: request)
        if following.withLock({ state in
            state.results = results
            return state.replaced
        }) {
            await results.stop()
        }
        let interrupt = InterruptHandler(signals: [SIGINT, SIGTERM]) {
            Task { await results.stop() }
        }
        defer { withExtendedLifetime(interrupt) {} }
        // A SQLite store removed or replaced while it is followed ends the list: nothing will change it any more.
        let removal = StoreRemovalWatch(container) { _ in Task { await results.stop() } }
        defer { removal?.cancel() }
        if !view.output.isTerminal {
            Output.printError("following the store; Ctrl-C to stop")
        }
        var shown = 0
        for await snapshot in results {
            view.show(snapshot, live: true)
            shown += 1
            if let snapshots, shown >= snapshots { break }
        }
        await results.stop()
        if let change = removal?.change, !interrupt.wasInterrupted {
            throw StoreRemovalWatch.failure(change, path: container.location.displayPath)
        }
        if following.withLock({ $0.replaced }) { throw ServerNotices.replacedFailure(of: container) }
        Output.printError(interrupt.wasInterrupted ? "stopped following the store" : "shown \(shown) \(shown == 1 ? "state" : "states") of the list")
    }

    /// The `--where` predicate, checked against the entity by names and types, then for what the named store
    /// refuses, before the store is opened.
    static func parse(_ text: String, for entity: EntityDescription, in dialect: SQLDialect) throws -> FetchPredicate {
        do {
            return try PredicateText.parse(text, for: entity, in: dialect)
        } catch {
            throw ToolFailure("--where \(error)", status: .usage)
        }
    }
}
