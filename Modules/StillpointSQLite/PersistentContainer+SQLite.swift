import Foundation
import StillpointCore

extension PersistentContainer {
    /// Opens the SQLite store at `location`, creating it or upgrading its tables to `schema` as needed; or, with
    /// `access: .readOnly`, reads a store that exists and is up to date without writing anything or waiting for
    /// a writer.
    ///
    /// ```swift
    /// let container = try PersistentContainer(schema: schema, location: .file(url))
    /// ```
    ///
    /// A SQLite database of another program (tables of its own, none of a store's) is refused untouched with
    /// ``StoreError/foreignDatabase(path:tables:)``; `addingToForeignDatabase: true` lets a read-write open add the
    /// store's tables beside the other program's:
    ///
    /// ```swift
    /// let container = try PersistentContainer(schema: schema, location: .file(appDatabase), addingToForeignDatabase: true)
    /// ```
    ///
    /// - Throws: ``StoreError`` with the path when the store cannot be opened or upgraded in place, was written by a
    ///   newer Stillpoint, is another program's database, or (read-only) does not exist yet or must be upgraded
    ///   first. Another store module's location (`.postgres(uri)` of `StillpointPostgres`) is opened by the opener
    ///   that module registered; one of a scheme no module registered throws ``StoreError/storeModuleMissing(path:module:)``.
    public convenience init(schema: Schema, location: StoreLocation, access: StoreAccess = .readWrite,
                            addingToForeignDatabase: Bool = false) throws {
        if location.fileURL != nil || location == .inMemory {
            self.init(store: try Store(location: location, schema: schema, access: access,
                                       addingToForeignDatabase: addingToForeignDatabase))
        } else {
            // Another store module's location, opened by the opener it registered.
            self.init(store: try location.openDriver(schema: schema, access: access))
        }
    }

    /// Opens an existing store read-only; one made by an older Stillpoint is first upgraded by a short
    /// read-write open, the only write this makes.
    ///
    /// ```swift
    /// let container = try PersistentContainer.reading(schema: schema, url: url)
    /// ```
    public static func reading(schema: Schema, url: URL) throws -> PersistentContainer {
        do {
            return try PersistentContainer(schema: schema, location: .file(url), access: .readOnly)
        } catch StoreError.needsUpgrade {
            try PersistentContainer(schema: schema, location: .file(url)).close()
            return try PersistentContainer(schema: schema, location: .file(url), access: .readOnly)
        }
    }
}
