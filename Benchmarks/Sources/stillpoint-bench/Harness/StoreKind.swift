import Foundation
import StillpointCore

/// The kind of store a workload runs against.
enum StoreKind: String, Sendable, CaseIterable {
    /// A fresh SQLite file in a temporary folder, in WAL mode.
    case file
    /// A private in-memory SQLite database.
    case memory

    /// The Stillpoint store location for a measurement in `directory`.
    func location(in directory: TemporaryDirectory) -> StoreLocation {
        switch self {
        case .file: return .file(directory.url.appendingPathComponent("stillpoint.sqlite"))
        case .memory: return .inMemory
        }
    }

    /// How tables name the store.
    var title: String {
        switch self {
        case .file: return "SQLite file store (WAL)"
        case .memory: return "In-memory store"
        }
    }
}
