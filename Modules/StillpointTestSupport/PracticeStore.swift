import Foundation
import StillpointCore
import StillpointPostgres
import StillpointPostgresTestSupport
import StillpointSQLite

/// The stores that store tests run on: a SQLite file and a PostgreSQL database of the tests' server (left out
/// when `STILLPOINT_TEST_POSTGRES=skip` says so). One helper for every test target that opens the practice log
/// both ways (the practice log's tests, the report's).
///
/// ```swift
/// @Test(arguments: PracticeStore.all)
/// func somethingStored(_ store: PracticeStore) async throws {
///     let container = try store.open(schema: Session.schema)          // a new, empty store
///     let place = try store.makePlace()                               // or a place to open (and reopen) by hand
///     let again = try store.open(place, schema: Session.schema)
/// }
/// ```
public enum PracticeStore: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres

    public static let all: [PracticeStore] = allCases.filter { $0 != .postgres || PostgresTestServer.isWanted }

    /// How a test's arguments name the store.
    public var description: String { self == .sqlite ? "SQLite" : "PostgreSQL" }

    /// A new, empty place for a store: a file path in a folder of its own, or the URI of a new database.
    public func makePlace() throws -> String {
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
    public func open(_ place: String, schema: Schema) throws -> PersistentContainer {
        switch self {
        case .sqlite: try PersistentContainer(schema: schema, location: .file(URL(fileURLWithPath: place)))
        case .postgres: try PersistentContainer(schema: schema, postgres: place)
        }
    }

    /// Makes a new, empty store with `schema` at a new place.
    public func open(schema: Schema) throws -> PersistentContainer {
        try open(try makePlace(), schema: schema)
    }
}
