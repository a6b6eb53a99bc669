import ArgumentParser
import Foundation
import PracticeLog
import StillpointCore
import StillpointDefaultStore

/// `stillpoint demo`: writes a realistic synthetic practice history.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Write a realistic synthetic practice history into a store.",
        discussion: """
            Several years of meditation and yoga, with habits that form and lapse, several sessions on some days, \
            trips to other time zones and the odd outlier real exports have. The same options always write the same \
            sessions, and writing them twice adds nothing.

            Examples:
              stillpoint demo --sessions 5000 --store demo.sqlite
              stillpoint demo --sessions 1000000 --years 10 --store big.sqlite
            """)

    @Option(parsing: .unconditional, help: "How many sessions to write.")
    var sessions = 2_400

    @Option(parsing: .unconditional, help: "How many years the history spans, ending now.")
    var years = 4

    @Option(name: .customLong("ending-at"), help: ArgumentHelp("End the history at this ISO 8601 instant instead of now, for a reproducible store: no session starts or ends after it.", valueName: "instant"))
    var endingAt: String?

    @Option(help: "The seed of the random history.")
    var seed: UInt64 = 108

    @Flag(name: .customLong("add-to-foreign-database"),
          help: ArgumentHelp("Add Stillpoint's tables to a SQLite database another program made, beside its own tables.",
                             discussion: "Without it, such a database is refused (65) and left untouched. Its own tables are not changed, but the database is switched to WAL journal mode (a -wal and a -shm file beside it while it is open), and a database whose program sets user_version is refused even so."))
    var addToForeignDatabase = false

    @OptionGroup var storeOption: StoreOption
    @OptionGroup var practitionerOption: PractitionerOption
    @OptionGroup var global: GlobalOptions

    /// The largest history the demo writes: ten million sessions over at most a century.
    static let maximumSessions = 10_000_000
    static let maximumYears = 100

    func validate() throws {
        guard (0...Self.maximumSessions).contains(sessions) else {
            throw ValidationError("--sessions \(sessions) is out of range; give 0 to \(Self.maximumSessions.formatted())")
        }
        guard (1...Self.maximumYears).contains(years) else {
            throw ValidationError("--years \(years) is out of range; give 1 to \(Self.maximumYears)")
        }
        if let endingAt, SessionInstant.parse(endingAt) == nil {
            throw ValidationError("'\(endingAt)' is not an ISO 8601 instant; write it like 2024-03-15T12:00:00Z")
        }
    }

    func run() async throws {
        let logger = global.bootstrapLogging()
        let history = DemoHistory(sessions: sessions, years: years, endingAt: endingAt.flatMap(SessionInstant.parse) ?? Date(), seed: seed)
        let url = storeOption.storeURL()
        let written: Int
        if storeOption.store != nil, !storeOption.isServer(), !FileManager.default.fileExists(atPath: url.path) {
            // A new store is built beside its name and moved there when complete: a failed demo leaves none.
            let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).demo-\(getpid()).partial")
            written = try await history.writeNewStore(at: url, partial: partial, practitioner: practitionerOption.practitioner ?? Practitioner.defaultID)
        } else {
            // Into an existing store, sessions already there are skipped: running the demo again completes it.
            let container = try await storeOption.open(for: .writing, addingToForeignDatabase: addToForeignDatabase, logger: logger)
            written = try await history.write(to: container, practitioner: try await practitionerOption.scopeForWriting(container).id)
        }
        Output.print("wrote \(written) demo sessions\(written < sessions ? " (\(sessions - written) were already there)" : "")")
    }
}
