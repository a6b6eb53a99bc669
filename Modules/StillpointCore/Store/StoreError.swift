import Foundation

/// Why a store could not be opened, read or written. Each case names the store's path.
public enum StoreError: Error, Sendable, Equatable {
    /// The file exists but is not a SQLite database.
    case notADatabase(path: String)
    /// The file is another program's SQLite database, not a store: it has tables (the first few are `tables`) and
    /// none of Stillpoint's. It is refused untouched, unless a writer is told to add the store's tables to it.
    case foreignDatabase(path: String, tables: [String])
    /// Told to add the store's tables to another program's database, which sets `PRAGMA user_version` itself:
    /// Stillpoint keeps its store version there, so the two cannot share the database.
    case foreignDatabaseVersioned(path: String, userVersion: Int)
    /// The file is a SQLite database whose content is damaged.
    case corrupt(path: String, detail: String)
    /// The folder that should hold the store does not exist.
    case missingDirectory(path: String)
    /// The folder that should hold the store cannot be written.
    case readOnlyDirectory(path: String)
    /// The store's tables differ from the schema in a way that cannot be upgraded in place.
    case incompatibleSchema(path: String, entity: String, reason: String)
    /// SQLite reported an error.
    case sqlite(path: String, code: Int32, message: String)
    /// The change log no longer holds every change after `token`: it was purged through `purgedThrough`.
    case historyPurged(path: String, token: HistoryToken, purgedThrough: HistoryToken)
    /// The path names a folder.
    case notAFile(path: String)
    /// The path names a device, a FIFO or a socket (`kind` says which), which cannot hold a store.
    case specialFile(path: String, kind: String)
    /// A read-only open found no store (no file, or an empty one) at the path.
    case noStore(path: String)
    /// The store was written by a newer Stillpoint, whose store format this one does not know.
    case newerVersion(path: String, version: Int, supported: Int)
    /// The store was migrated to a ``SchemaVersion`` newer than the schema's latest, by a newer application.
    case newerSchemaVersion(path: String, version: Int, latest: Int)
    /// A read-only open found a store whose tables must be upgraded first, which takes a read-write open.
    case needsUpgrade(path: String)
    /// A save was asked of a store opened read-only.
    case readOnly(path: String)
    /// The disk (or its quota) holding the store is full.
    case diskFull(path: String)
    /// The database server could not be reached or refused the connection; `path` is the URI without its password.
    case serverUnreachable(path: String, detail: String)
    /// The database server has no database of the name the URI gives (`path` is the URI without its password):
    /// the server's counterpart of a store file that does not exist.
    case noDatabase(path: String, database: String)
    /// The database server reported an error (`code` is PostgreSQL's SQLSTATE, when it gave one).
    case server(path: String, code: String?, message: String)
    /// The database server cancelled a statement this program did not ask to stop: a `statement_timeout` (in the
    /// URI's `options`, the role's or the database's settings) ran out, or an administrator cancelled it
    /// (`pg_cancel_backend`). `message` is the server's; nothing of the statement's transaction was kept.
    case serverCancelled(path: String, message: String)
    /// The database server refused a right the store needs (a table it may not write, a schema it may not create
    /// in, a `search_path` with no schema it may use); `detail` says which, and what to grant.
    case permissionDenied(path: String, detail: String)
    /// The location cannot be read as a store's location (a PostgreSQL URI libpq cannot parse).
    case invalidLocation(path: String, detail: String)
    /// The location needs a store module this program was not built with.
    case storeModuleMissing(path: String, module: String)
}

extension StoreError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .notADatabase(let path):
            return "\(path) is not a SQLite database; name another file, or move this one away to start a new store"
        case .foreignDatabase(let path, let tables):
            let named = tables.isEmpty ? "" : " (its tables: " + tables.map { String(reflecting: $0) }.joined(separator: ", ") + ")"
            return "\(path) is another program's SQLite database\(named), not a Stillpoint store; it was left untouched: "
                + "name a Stillpoint store, or a new file to make one"
        case .foreignDatabaseVersioned(let path, let userVersion):
            return "\(path) is another program's SQLite database, which sets user_version \(userVersion); Stillpoint keeps its "
                + "store version there, so the two cannot share it (it was left untouched): make the store in a new file"
        case .corrupt(let path, let detail):
            return "\(path) is a damaged SQLite database (\(detail)); restore it from a backup or start a new store"
        case .missingDirectory(let path):
            return "the folder \(path) does not exist; create it first, or choose a store in an existing folder"
        case .readOnlyDirectory(let path):
            return "the folder \(path) cannot be written; choose a writable folder for the store"
        case .incompatibleSchema(let path, let entity, let reason):
            return "\(path): the table of \(entity) cannot be upgraded in place: \(reason); migrate the data to a new store"
        case .sqlite(let path, let code, let message):
            return "\(path): SQLite error \(code): \(message)"
        case .historyPurged(let path, let token, let purgedThrough):
            return "\(path): the change log was purged through \(purgedThrough.sequence), so the changes after \(token.sequence) are "
                + "no longer all in it; fetch again what you show, then continue from currentHistoryToken()"
        case .notAFile(let path):
            return "\(path) is a folder, not a store; name a store file, such as \(path)/practice.sqlite"
        case .specialFile(let path, let kind):
            return "\(path) is \(kind), not a regular file, so it cannot hold a store; name a store file (a new one is made by "
                + "the first write)"
        case .noStore(let path):
            return "there is no store at \(path); create one first by writing sessions into it"
        case .newerVersion(let path, let version, let supported):
            return "\(path) is a store of version \(version), written by a newer Stillpoint; this one reads versions up to "
                + "\(supported): update Stillpoint to use it (the store was left untouched)"
        case .newerSchemaVersion(let path, let version, let latest):
            return "\(path) was migrated to schema version \(version) by a newer application; this schema's latest version is "
                + "\(latest): open the store with the application that migrated it, or declare its versions up to \(version) "
                + "(the store was left untouched)"
        case .needsUpgrade(let path):
            return "\(path) was made by an older Stillpoint and must be upgraded before it can be read; open it once for writing"
        case .readOnly(let path):
            return "\(path) was opened read-only and cannot be saved to; open it for writing to change it"
        case .diskFull(let path):
            return "\(path): the disk is full; free some space (the changes saved before this are kept), then try again"
        case .serverUnreachable(let path, let detail):
            return "cannot connect to the PostgreSQL server at \(path): \(detail); check that the server runs and accepts "
                + "connections there, and the URI's host, port, database, user and password (or PGPASSWORD)"
        case .noDatabase(let path, let database):
            return "the database \(database) of \(path) does not exist on the PostgreSQL server; create it first "
                + "(createdb \(database)), or name an existing database"
        case .server(let path, let code, let message):
            return "\(path): PostgreSQL error" + (code.map { " \($0)" } ?? "") + ": \(message)"
        case .serverCancelled(let path, let message):
            return "\(path): the PostgreSQL server cancelled a statement (\(message)), so nothing of it was kept; a "
                + "statement_timeout ran out or an administrator stopped it: raise the timeout (the URI's "
                + "options=-c statement_timeout=..., or the role's) or try again later"
        case .permissionDenied(let path, let detail):
            return "\(path): \(detail)"
        case .invalidLocation(let path, let detail):
            return "\(path) is not a PostgreSQL connection URI libpq can read (\(detail)); write it as "
                + "postgresql://user@host:port/database?parameter=value"
        case .storeModuleMissing(let path, let module):
            return "\(path) is a PostgreSQL store, which this program opens only through \(module): import it and use "
                + "PersistentContainer(schema:postgres:)"
        }
    }
}
