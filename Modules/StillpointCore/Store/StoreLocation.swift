import Foundation

/// Where a container keeps its data.
///
/// ```swift
/// try PersistentContainer(schema: schema, location: .file(url))
/// try PersistentContainer(schema: schema, location: .inMemory)
/// ```
public enum StoreLocation: Sendable, Hashable {
    /// A SQLite file in WAL mode: readers run while one writer writes.
    case file(URL)
    /// A private in-memory store, gone when the container is.
    case inMemory

    /// The path shown in errors and messages.
    package var displayPath: String {
        switch self {
        case .file(let url): return url.path
        case .inMemory: return ":memory:"
        }
    }
}
