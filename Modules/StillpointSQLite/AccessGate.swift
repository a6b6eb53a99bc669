import Foundation

/// Lets a store close only between accesses: ``close()`` waits for the reads and writes under way, and an access
/// that comes after it fails instead of starting. GRDB's pool, closed under a read that has just begun, hands that
/// read a closed connection, and SQLite then crashes the process (a command that stops following a removed store
/// closed it while a history read was starting).
///
/// ```swift
/// try gate.access { try pool.read(body) }   // throws once the gate is closed
/// gate.close()                              // waits for the accesses under way
/// ```
final class AccessGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var underWay = 0
    private var isClosedFlag = false

    /// Runs `body` unless the gate is closed (then throws `closedError()`), holding the gate open meanwhile.
    func access<T>(orThrow closedError: () -> any Error, _ body: () throws -> T) throws -> T {
        try enter(orThrow: closedError)
        defer { leave() }
        return try body()
    }

    /// ``access(orThrow:_:)`` for a body that suspends.
    func access<T>(orThrow closedError: () -> any Error, _ body: () async throws -> T) async throws -> T {
        try enter(orThrow: closedError)
        defer { leave() }
        return try await body()
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isClosedFlag
    }

    /// Closes the gate and waits until no access is under way; returns whether it was open.
    @discardableResult
    func close() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let wasOpen = !isClosedFlag
        isClosedFlag = true
        while underWay > 0 { condition.wait() }
        return wasOpen
    }

    private func enter(orThrow closedError: () -> any Error) throws {
        condition.lock()
        defer { condition.unlock() }
        guard !isClosedFlag else { throw closedError() }
        underWay += 1
    }

    private func leave() {
        condition.lock()
        underWay -= 1
        if underWay == 0 { condition.broadcast() }
        condition.unlock()
    }
}
