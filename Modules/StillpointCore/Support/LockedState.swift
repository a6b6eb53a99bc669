import Foundation

/// A value protected by a lock, shared between threads.
///
/// A `pthread` mutex underneath, which the thread sanitizer understands (the futex-based `Mutex` of the
/// Synchronization module on Linux is invisible to it, so every use looked like a race).
///
/// ```swift
/// let counter = LockedState(0)
/// counter.withLock { $0 += 1 }
/// ```
package final class LockedState<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
