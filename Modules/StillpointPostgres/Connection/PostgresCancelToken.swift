import CLibPQ
import StillpointCore

/// Cancels the statement a connection is running, from any thread: libpq's `PQcancel` asks the server, over a
/// connection of its own, to stop it; the running call then fails with SQLSTATE 57014.
///
/// ```swift
/// let token = connection.cancelToken
/// Task.detached { try await Task.sleep(for: .seconds(1)); token.cancel() }
/// try connection.execute("SELECT pg_sleep(60)")   // throws PostgresError, isCancellation
/// ```
package final class PostgresCancelToken: Sendable {
    /// libpq's `PGcancel`: `PQcancel` may use it from any thread, and it is freed only when the token is gone.
    private nonisolated(unsafe) let handle: OpaquePointer?
    /// One cancel request at a time.
    private let sending = LockedState(())

    init(_ connection: OpaquePointer) {
        handle = PQgetCancel(connection)
    }

    deinit {
        if let handle { PQfreeCancel(handle) }
    }

    /// Asks the server to stop the running statement; returns whether the request was sent. Nothing happens when
    /// no statement runs.
    @discardableResult
    package func cancel() -> Bool {
        guard let handle else { return false }
        return sending.withLock { _ in
            var buffer = [CChar](repeating: 0, count: 256)
            return PQcancel(handle, &buffer, Int32(buffer.count)) == 1
        }
    }
}
