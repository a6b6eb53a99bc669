import StillpointCore

/// What SQLite's store reports of its own through ``StoreError/driver(path:error:)``: a file that is not a
/// SQLite database or is another program's, and SQLite's own errors.
///
/// ```swift
/// throw StoreError.driver(path: path, error: SQLiteStoreError.notADatabase)
/// throw StoreError.notADatabase(path: path)   // the same
/// ```
public enum SQLiteStoreError: StoreDriverError {
    /// The file exists but is not a SQLite database.
    case notADatabase
    /// The file is another program's SQLite database, not a store: it has tables (the first few are `tables`) and
    /// none of Stillpoint's. It is refused untouched, unless a writer is told to add the store's tables to it.
    case foreignDatabase(tables: [String])
    /// Told to add the store's tables to another program's database, which sets `PRAGMA user_version` itself:
    /// Stillpoint keeps its store version there, so the two cannot share the database.
    case foreignDatabaseVersioned(userVersion: Int)
    /// SQLite reported an error: its extended result code and message.
    case sqlite(code: Int32, message: String)
    /// The path names a folder.
    case notAFile

    public func message(at path: String) -> String {
        switch self {
        case .notADatabase:
            return "\(path) is not a SQLite database; name another file, or move this one away to start a new store"
        case .foreignDatabase(let tables):
            let named = tables.isEmpty ? "" : " (its tables: " + tables.map { String(reflecting: $0) }.joined(separator: ", ") + ")"
            return "\(path) is another program's SQLite database\(named), not a Stillpoint store; it was left untouched: "
                + "name a Stillpoint store, or a new file to make one"
        case .foreignDatabaseVersioned(let userVersion):
            return "\(path) is another program's SQLite database, which sets user_version \(userVersion); Stillpoint keeps its "
                + "store version there, so the two cannot share it (it was left untouched): make the store in a new file"
        case .sqlite(let code, let message):
            return "\(path): SQLite error \(code): \(message)"
        case .notAFile:
            return "\(path) is a folder, not a store; name a store file, such as \(path)/practice.sqlite"
        }
    }

    public var kind: StoreFailureKind {
        switch self {
        case .notADatabase, .foreignDatabase, .foreignDatabaseVersioned: .badData
        case .sqlite: .ioError
        case .notAFile: .noInput
        }
    }
}

/// The spellings of SQLite's errors from before they were the driver's, so that code that makes them compiles.
extension StoreError {
    /// ``SQLiteStoreError/notADatabase`` at `path`.
    public static func notADatabase(path: String) -> StoreError {
        .driver(path: path, error: SQLiteStoreError.notADatabase)
    }

    /// ``SQLiteStoreError/foreignDatabase(tables:)`` at `path`.
    public static func foreignDatabase(path: String, tables: [String]) -> StoreError {
        .driver(path: path, error: SQLiteStoreError.foreignDatabase(tables: tables))
    }

    /// ``SQLiteStoreError/foreignDatabaseVersioned(userVersion:)`` at `path`.
    public static func foreignDatabaseVersioned(path: String, userVersion: Int) -> StoreError {
        .driver(path: path, error: SQLiteStoreError.foreignDatabaseVersioned(userVersion: userVersion))
    }

    /// ``SQLiteStoreError/notAFile`` at `path`.
    public static func notAFile(path: String) -> StoreError {
        .driver(path: path, error: SQLiteStoreError.notAFile)
    }

    /// ``SQLiteStoreError/sqlite(code:message:)`` at `path`.
    public static func sqlite(path: String, code: Int32, message: String) -> StoreError {
        .driver(path: path, error: SQLiteStoreError.sqlite(code: code, message: message))
    }
}
