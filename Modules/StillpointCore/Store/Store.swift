import Foundation
import GRDB

/// The narrow seam between the object graph and SQLite: open, read, write, and SQL in one dialect.
///
/// Everything above it speaks entities and attribute values; only this folder knows that the store is SQLite,
/// so that another store (a server database) can take its place.
final class Store: Sendable {
    let location: StoreLocation
    let schema: Schema
    /// Tells this process's change-log entries from other processes'.
    let processToken = UUID().uuidString
    private let writer: any DatabaseWriter

    /// Opens (creating it if needed) the store at `location`, and upgrades its tables to `schema`.
    ///
    /// A store that cannot be opened or upgraded is left exactly as it was.
    init(location: StoreLocation, schema: Schema) throws {
        self.location = location
        self.schema = schema
        var configuration = Configuration()
        // Another process (or container) may hold the write lock for a moment: wait rather than fail.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            SQLFunctions.register(in: db)
        }
        switch location {
        case .inMemory:
            writer = try DatabaseQueue(configuration: configuration)
        case .file(let url):
            let path = url.path
            try StorePreflight.check(fileAt: url, schema: schema)
            do {
                writer = try DatabasePool(path: path, configuration: configuration)
            } catch {
                throw StoreError.translating(error, path: path)
            }
        }
        let migrator = SchemaMigrator(schema: schema, path: location.displayPath)
        do {
            try writer.write { db in try migrator.migrate(db) }
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// Runs `body` in a read transaction that sees one consistent state of the store.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.read(body)
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// Runs `body` in one write transaction: all of it is saved, or none of it.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try writer.write(body)
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// Runs `body` in one write transaction on the store's writer, without blocking the caller's thread.
    func writeAsync<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.write(body)
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// Runs `body` in a read transaction without blocking the caller's thread.
    func readAsync<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await writer.read(body)
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// Closes the store's connections, checkpointing the WAL into the main file. Later use fails.
    func close() throws {
        do {
            if case .file = location {
                try writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            }
            try writer.close()
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// Quotes an identifier (a table or column name) for SQL.
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension StoreError {
    /// Turns an error thrown by SQLite or GRDB into a store error that names the path.
    static func translating(_ error: any Error, path: String) -> any Error {
        if let failure = error as? SQLiteFailure {
            return StoreError.sqlite(path: path, code: failure.code, message: failure.message)
        }
        guard let databaseError = error as? DatabaseError else { return error }
        switch databaseError.resultCode {
        case .SQLITE_INTERRUPT:
            return CancellationError()
        case .SQLITE_NOTADB:
            return StoreError.notADatabase(path: path)
        case .SQLITE_CORRUPT:
            return StoreError.corrupt(path: path, detail: databaseError.message ?? "corrupt")
        default:
            return StoreError.sqlite(
                path: path, code: databaseError.extendedResultCode.rawValue, message: databaseError.message ?? "unknown error")
        }
    }
}
