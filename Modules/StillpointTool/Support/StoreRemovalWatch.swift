import Foundation
import StillpointCore

/// Notices that a SQLite store's file was removed, or replaced by another file, while a command follows it
/// (`sessions --live`, `report --watch`). SQLite goes on reading a removed file through the descriptor it holds,
/// and nobody will ever write it again: without this the command would keep showing a store that is gone, and
/// say nothing.
///
/// Every `interval` it compares the device and inode at the store's path with the file's when it started, and
/// calls `action` once, with what happened. The command then stops following, says so once on standard error,
/// and exits 66 (``failure(_:path:)``): the store it follows is no more, and a new file at the path is another
/// store, which a new run follows from its start.
///
/// ```swift
/// let removal = StoreRemovalWatch(container) { _ in Task { await results.stop() } }
/// defer { removal?.cancel() }
/// ...
/// if let change = removal?.change { throw StoreRemovalWatch.failure(change, path: path) }
/// ```
final class StoreRemovalWatch: Sendable {
    /// What happened to the store's file.
    enum Change: Sendable {
        case removed
        case replaced
    }

    private let task: Task<Void, Never>
    private let seen: LockedState<Change?>

    /// Starts watching the store's file; `nil` for a store that is not a file (PostgreSQL, in memory).
    init?(_ container: PersistentContainer, every interval: Duration = .milliseconds(250),
          action: @escaping @Sendable (Change) -> Void) {
        guard let url = container.location.fileURL, let original = FileIdentity(path: url.path) else { return nil }
        let path = url.path
        let seen = LockedState<Change?>(nil)
        self.seen = seen
        task = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                let current = FileIdentity(path: path)
                guard !Task.isCancelled, current != original else { continue }
                let change: Change = current == nil ? .removed : .replaced
                seen.withLock { $0 = change }
                action(change)
                return
            }
        }
    }

    deinit {
        task.cancel()
    }

    /// What happened to the file, once it did.
    var change: Change? { seen.withLock { $0 } }

    func cancel() {
        task.cancel()
    }

    /// The failure a following command ends with, once: what happened, and what to do.
    static func failure(_ change: Change, path: String) -> ToolFailure {
        switch change {
        case .removed:
            ToolFailure("the store \(path) was removed while it was followed, so nothing will change it any more; stopped "
                        + "following it (what was shown last is its last state): restore or make the store, then run the "
                        + "command again", status: .noInput)
        case .replaced:
            ToolFailure("the store \(path) was replaced by another file while it was followed; stopped following the old "
                        + "one: run the command again to follow the new one", status: .noInput)
        }
    }
}
