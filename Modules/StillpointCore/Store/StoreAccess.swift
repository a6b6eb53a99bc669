/// Whether a container may write its store.
///
/// A read-only container never writes the file, never takes SQLite's write lock and so never waits for a writer
/// in another process: its reads see the last committed state. Its saves fail with ``StoreError/readOnly(path:)``.
///
/// ```swift
/// let reader = try PersistentContainer(schema: schema, location: .file(url), access: .readOnly)
/// ```
public enum StoreAccess: Sendable, Hashable {
    /// Reads and saves; a missing store is created and an older one upgraded.
    case readWrite
    /// Reads only. The store must exist and be of the schema already (``StoreError/noStore(path:)``,
    /// ``StoreError/needsUpgrade(path:)``, ``StoreError/foreignDatabase(path:tables:)``); on a read-only medium it
    /// is read as it is.
    case readOnly
}
