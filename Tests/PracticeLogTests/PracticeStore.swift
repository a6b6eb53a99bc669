import Foundation
import StillpointCore
import StillpointPostgres
import StillpointPostgresTestSupport
import StillpointSQLite
import Testing

/// The stores the practice log's store tests run on: a SQLite file and a PostgreSQL database of the tests' server
/// (left out when `STILLPOINT_TEST_POSTGRES=skip` says so).
///
/// ```swift
/// @Test(arguments: PracticeStore.all)
/// func somethingStored(_ store: PracticeStore) async throws {
///     let place = try store.makePlace()
///     let container = try store.open(place, schema: Session.schema)
/// }
/// ```
enum PracticeStore: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static let all: [PracticeStore] = allCases.filter { $0 != .postgres || PostgresTestServer.isWanted }

    var testDescription: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

    /// A new, empty place for a store: a file path in a folder of its own, or the URI of a new database.
    func makePlace() throws -> String {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("practice-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return directory.appendingPathComponent("practice.sqlite").path
        case .postgres:
            return try PostgresTestServer.shared().makeDatabase("practice")
        }
    }

    /// Opens (making or migrating) the store at `place` with `schema`.
    func open(_ place: String, schema: Schema) throws -> PersistentContainer {
        switch self {
        case .sqlite: try PersistentContainer(schema: schema, location: .file(URL(fileURLWithPath: place)))
        case .postgres: try PersistentContainer(schema: schema, postgres: place)
        }
    }
}
