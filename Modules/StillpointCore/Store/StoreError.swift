import Foundation

/// Why a store could not be opened, read or written. Each case names the store's path.
public enum StoreError: Error, Sendable, Equatable {
    /// The store's content is damaged (`detail` says where).
    case corrupt(path: String, detail: String)
    /// The folder that should hold the store does not exist.
    case missingDirectory(path: String)
    /// The folder that should hold the store cannot be written.
    case readOnlyDirectory(path: String)
    /// The store's tables differ from the schema in a way that cannot be upgraded in place.
    case incompatibleSchema(path: String, entity: String, reason: String)
    /// The store's driver reported an error of its own: `error` says what, in the driver's words (SQLite's
    /// `SQLiteStoreError`, PostgreSQL's `PostgresStoreError`).
    case driver(path: String, error: any StoreDriverError)
    /// The change log no longer holds every change after `token`: it was purged through `purgedThrough`.
    case historyPurged(path: String, token: HistoryToken, purgedThrough: HistoryToken)
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
    /// The database server refused a right the store needs (a table it may not write, a schema it may not create
    /// in, a `search_path` with no schema it may use); `detail` says which, and what to grant.
    case permissionDenied(path: String, detail: String)
    /// The location needs a store module this program was not built with.
    case storeModuleMissing(path: String, module: String)
}

extension StoreError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .corrupt(let path, let detail):
            return "\(path) is a damaged store (\(detail)); restore it from a backup or start a new store"
        case .missingDirectory(let path):
            return "the folder \(path) does not exist; create it first, or choose a store in an existing folder"
        case .readOnlyDirectory(let path):
            return "the folder \(path) cannot be written; choose a writable folder for the store"
        case .incompatibleSchema(let path, let entity, let reason):
            return "\(path): the table of \(entity) cannot be upgraded in place: \(reason); migrate the data to a new store"
        case .driver(let path, let error):
            return error.message(at: path)
        case .historyPurged(let path, let token, let purgedThrough):
            return "\(path): the change log was purged through \(purgedThrough.sequence), so the changes after \(token.sequence) are "
                + "no longer all in it; fetch again what you show, then continue from currentHistoryToken()"
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
        case .permissionDenied(let path, let detail):
            return "\(path): \(detail)"
        case .storeModuleMissing(let path, let module):
            return "\(path) is a store this program opens only through \(module), which it was not built with: import the "
                + "module and open the location through it"
        }
    }
}

extension StoreError {
    public static func == (lhs: StoreError, rhs: StoreError) -> Bool {
        switch (lhs, rhs) {
        case let (.driver(leftPath, leftError), .driver(rightPath, rightError)):
            return leftPath == rightPath && AnyHashable(leftError) == AnyHashable(rightError)
        case (.driver, _), (_, .driver):
            return false
        default:
            return lhs.description == rhs.description
        }
    }

    /// The driver's own error, for a ``driver(path:error:)``.
    ///
    /// ```swift
    /// if let failure = error.driverError as? SQLiteStoreError, case .foreignDatabase = failure { ... }
    /// ```
    public var driverError: (any StoreDriverError)? {
        guard case .driver(_, let error) = self else { return nil }
        return error
    }
}
