import Foundation
import StillpointCore
import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// Where the core's tests put their PostgreSQL stores: a database per suite, copied from a template the first
/// time the suite asks, and a schema per container in it (libpq's `options=-csearch_path=...`).
///
/// Measured on the test server (data in memory, `fsync` off, a loaded two-core machine), in a run of the core's
/// tests: a database copied from the template takes 26 ms (median) and holds 7 MB, a schema 9 ms with its
/// connection. A database for each of the run's ~150 PostgreSQL containers would add 4 s and a gigabyte of memory;
/// a database for each of its 21 suites adds half a second. Schemas keep each container's tables and change log
/// apart; the `NOTIFY` doorbell is per database, so a suite's watchers may wake for each other's commits and read
/// nothing new. The server, and everything on it, is removed when the test process exits.
final class PostgresTestSchemas: Sendable {
    static let shared = PostgresTestSchemas()

    /// Each suite's database, by the suite's name.
    private let databases = LockedState<[String: SuiteDatabase]>([:])

    /// One suite's database, made by the first of its tests to ask.
    private final class SuiteDatabase: Sendable {
        /// Held while the database is made, so that a suite's tests running at once make one between them
        /// while other suites make theirs.
        let uri = LockedState<String?>(nil)
    }

    /// The name of the running test's suite, for ``makeSchema(forSuite:)``.
    static func suiteOfCurrentTest() -> String {
        Test.current.map { $0.id.nameComponents.dropLast().joined(separator: ".") } ?? ""
    }

    /// A URI naming a new, empty schema in the database of `suite`.
    func makeSchema(forSuite suite: String) throws -> String {
        let database = try database(ofSuite: suite)
        let schema = "c_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        try PostgresConnection(uri: database).execute("CREATE SCHEMA \(schema)")
        return database + "&options=-csearch_path%3D\(schema)"
    }

    private func database(ofSuite suite: String) throws -> String {
        let database = databases.withLock { known in
            if let database = known[suite] { return database }
            let database = SuiteDatabase()
            known[suite] = database
            return database
        }
        return try database.uri.withLock { uri in
            if let uri { return uri }
            let made = try PostgresTestServer.shared().makeDatabase("suite")
            uri = made
            return made
        }
    }
}
