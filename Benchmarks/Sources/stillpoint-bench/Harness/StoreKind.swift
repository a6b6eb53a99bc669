import Foundation
import StillpointCore
import StillpointPostgres
import StillpointSQLite

/// The kind of store a workload runs against.
enum StoreKind: String, Sendable, CaseIterable {
    /// A fresh SQLite file in a temporary folder, in WAL mode.
    case file
    /// A private in-memory SQLite database.
    case memory
    /// A fresh database on the benchmark's PostgreSQL server (see ``PostgresServer``).
    case postgres

    /// The Stillpoint store location for a measurement in `directory`; for `postgres`, a new empty database.
    func location(in directory: TemporaryDirectory) throws -> StoreLocation {
        switch self {
        case .file: return .file(directory.url.appendingPathComponent("stillpoint.sqlite"))
        case .memory: return .inMemory
        case .postgres: return .postgres(try PostgresServer.makeDatabase("stillpoint"))
        }
    }

    /// A container over a fresh store of this kind for a measurement in `directory`.
    func container(schema: Schema, in directory: TemporaryDirectory) throws -> PersistentContainer {
        try Self.container(schema: schema, at: try location(in: directory))
    }

    /// A container over the store at `location`, of any kind (a child process opens its parent's store this way).
    static func container(schema: Schema, at location: StoreLocation) throws -> PersistentContainer {
        if let uri = location.postgresURI { return try PersistentContainer(schema: schema, postgres: uri) }
        return try PersistentContainer(schema: schema, location: location)
    }

    /// How tables name the store.
    var title: String {
        switch self {
        case .file: return "SQLite file store (WAL)"
        case .memory: return "In-memory store"
        case .postgres: return "PostgreSQL store"
        }
    }

    /// How tables name the baseline the store is compared with.
    var baselineTitle: String {
        switch self {
        case .file, .memory: return "raw SQLite C API"
        case .postgres: return "libpq"
        }
    }
}
