import GRDB
import GRDBSQLite
import Synchronization

/// A flag that stops every SQLite statement run for one context once it is set.
///
/// SQLite calls a progress handler every few hundred virtual-machine steps; while the flag is set the handler
/// asks SQLite to interrupt, and the statement fails with `SQLITE_INTERRUPT`, which surfaces as a
/// `CancellationError`. This is how cancelling an operation stops a long aggregate at once.
package final class InterruptFlag: Sendable {
    private let state = Atomic<Bool>(false)

    var isSet: Bool { state.load(ordering: .relaxed) }

    func set() { state.store(true, ordering: .relaxed) }
    func clear() { state.store(false, ordering: .relaxed) }

    /// Runs `body` with the flag watched on `db`'s connection, which other contexts share at other times.
    func watching<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        guard let connection = db.sqliteConnection else { return try body() }
        if isSet { throw CancellationError() }
        sqlite3_progress_handler(connection, 256, { flag in
            Unmanaged<InterruptFlag>.fromOpaque(flag!).takeUnretainedValue().isSet ? 1 : 0  // swiftlint:disable:this force_unwrapping: the pointer passed below
        }, Unmanaged.passUnretained(self).toOpaque())
        defer { sqlite3_progress_handler(connection, 0, nil, nil) }
        return try body()
    }
}
