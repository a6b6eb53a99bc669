import Dispatch

/// Runs `body`, which blocks its thread (libpq waits for the server), on a thread of its own rather than on one
/// of the few threads that run every test's tasks: a test waiting for its PostgreSQL store would hold up the rest.
func blockingWork<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}
