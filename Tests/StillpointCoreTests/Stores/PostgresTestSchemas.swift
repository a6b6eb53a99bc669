import Foundation
import StillpointCore
import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// Where the core's tests put their PostgreSQL stores: a database per suite, copied from a template the first
/// time the suite asks, and a schema per container in it (libpq's `options=-csearch_path=...`).
///
/// A schema costs about a millisecond and a database about a fifth of a second, so a database per container
/// would add a minute to a run of a few hundred containers; schemas isolate the tables and change logs as well.
/// The server, and everything on it, is removed when the test process exits.
final class PostgresTestSchemas: Sendable {
    static let shared = PostgresTestSchemas()

    /// The database URI of each suite that asked for one, by the suite's name.
    private let databases = LockedState<[String: String]>([:])

    /// A URI naming a new, empty schema in the running suite's database.
    func makeSchema() throws -> String {
        let database = try databaseOfCurrentSuite()
        let schema = "c_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        try PostgresConnection(uri: database).execute("CREATE SCHEMA \(schema)")
        return database + "&options=-csearch_path%3D\(schema)"
    }

    private func databaseOfCurrentSuite() throws -> String {
        let suite = Test.current.map { $0.id.nameComponents.dropLast().joined(separator: ".") } ?? ""
        // Held while the database is made, so that a suite's tests running at once make one between them.
        return try databases.withLock { known in
            if let uri = known[suite] { return uri }
            let made = try PostgresTestServer.shared().makeDatabase("suite")
            known[suite] = made
            return made
        }
    }
}
