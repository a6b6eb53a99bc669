import Foundation

/// A bounded hand-off of byte blocks from a producer thread to the reading thread.
///
/// ZIPFoundation pushes an entry's bytes into a closure and cannot be paused; this channel makes that push
/// wait while `capacity` blocks are unread, which turns it into a pull and keeps memory flat.
final class ChunkChannel: @unchecked Sendable {
    // Every stored property below is guarded by `condition`.
    private let condition = NSCondition()
    private let capacity: Int
    private var chunks: [[UInt8]] = []
    private var finished = false
    private var failure: (any Error)?
    private var cancelled = false

    init(capacity: Int = 2) {
        self.capacity = capacity
    }

    /// Hands over a block, waiting while the reader is behind. Throws once the reader is gone.
    func put(_ chunk: [UInt8]) throws {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= capacity && !cancelled { condition.wait() }
        if cancelled { throw CancellationError() }
        chunks.append(chunk)
        condition.broadcast()
    }

    /// Marks the end of the input, or its failure, after the blocks already handed over.
    func finish(throwing error: (any Error)? = nil) {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        failure = error
        condition.broadcast()
    }

    /// The next block, waiting for the producer; `nil` at the end; throws the producer's failure.
    func take() throws -> [UInt8]? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !finished { condition.wait() }
        if !chunks.isEmpty {
            condition.broadcast()
            return chunks.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }

    /// Tells the producer to stop: the reader will take nothing more.
    func cancel() {
        condition.lock()
        defer { condition.unlock() }
        cancelled = true
        chunks.removeAll()
        condition.broadcast()
    }
}
