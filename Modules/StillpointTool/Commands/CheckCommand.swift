import ArgumentParser
import Foundation
import PracticeLog
import StillpointCore

/// `stillpoint check`: reads the whole store and reports whether it is sound (SQLite's integrity check; on
/// PostgreSQL, that the store's tables and columns are all there).
///
/// Opening a store checks its integrity only when a writer did not close it cleanly, so that opening stays
/// cheap; this command runs the full `PRAGMA integrity_check` on demand.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check a store's integrity, and summarize it.",
        discussion: """
            Reads every page of a SQLite store (read-only: it never waits for an import that is running), or checks \
            that a PostgreSQL store has all its tables and columns, and prints "ok" with the number of sessions and \
            the store version, or the damage found. Exit status 0 when the \
            store is sound, 65 when it is damaged, 66 when there is no store.

            Examples:
              stillpoint check
              stillpoint check --store my.sqlite
            """)

    @OptionGroup var storeOption: StoreOption
    @OptionGroup var global: GlobalOptions

    /// How many problems are printed at most.
    static let problemLimit = 20

    func run() async throws {
        let logger = global.bootstrapLogging()
        let container = try await storeOption.open(for: .reading, logger: logger)
        let path = container.location.displayPath
        let problems = try container.integrityProblems(limit: Self.problemLimit)
        guard problems.isEmpty else {
            for problem in problems {
                Output.print("damage: \(problem)")
            }
            throw ToolFailure("\(path) is damaged (\(problems.count == Self.problemLimit ? "\(problems.count) or more" : "\(problems.count)") "
                              + "problems, listed above); restore it from a backup, or export what can be read into a new store",
                              status: .dataError)
        }
        try await Self.checkImportLinks(in: container, path: path)
        let sessions = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Session.self)) }
        let version = try container.storeVersion()
        Output.print("ok: \(path): \(sessions) sessions, store version \(version) (this Stillpoint reads up to version "
                     + "\(PersistentContainer.storeFormatVersion))")
    }

    /// Fails (65) when links between import runs and sessions reach a run or a session that is gone: another
    /// program deleted it without its links. Opening the store for writing completes that delete.
    private static func checkImportLinks(in container: PersistentContainer, path: String) async throws {
        let broken = try await ImportRuns.brokenLinks(in: container)
        guard !broken.isEmpty else { return }
        var found: [String] = []
        for (run, sessions) in broken.runsGone.sorted(by: { $0.key < $1.key }) {
            found.append("\(sessions) \(sessions == 1 ? "session is" : "sessions are") linked to import run \(run), which is gone")
        }
        if broken.sessionsGone > 0 {
            found.append("\(broken.sessionsGone) \(broken.sessionsGone == 1 ? "link reaches a session that is" : "links reach sessions that are") gone")
        }
        throw ToolFailure("\(path): \(found.joined(separator: "; ")) (deleted by another program without its links); "
                          + "importing any file into the store (`stillpoint import FILE --format FORMAT --store STORE`) removes those links "
                          + "and keeps the sessions", status: .dataError)
    }
}
