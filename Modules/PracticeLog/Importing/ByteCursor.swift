/// A read position over a ``ByteChunkSource``: the unread rest of the current block, refilled on demand.
///
/// Parsers scan `bytes` from `index` directly (fast), and call ``ensure(_:)`` when they run out.
final class ByteCursor {
    private let source: any ByteChunkSource
    /// The buffered bytes; those before `index` are already consumed.
    private(set) var bytes: [UInt8] = []
    /// The next unread byte in `bytes`.
    var index = 0
    private var sourceEnded = false
    /// Largest number of bytes held at once: about one block, however large the input.
    private(set) var peakBufferedBytes = 0
    /// Bytes taken from the source so far.
    private(set) var bytesRead = 0

    init(source: any ByteChunkSource) {
        self.source = source
    }

    /// Makes at least `count` unread bytes available, unless the input ends first; returns whether it did.
    func ensure(_ count: Int = 1) throws -> Bool {
        while bytes.count - index < count {
            if sourceEnded { return false }
            guard let chunk = try source.nextChunk() else {
                sourceEnded = true
                return false
            }
            bytesRead += chunk.count
            if index >= bytes.count {
                bytes = chunk
            } else {
                // Keeps only the unread tail, so a lookahead across blocks never holds more than two.
                bytes.removeSubrange(0..<index)
                bytes.append(contentsOf: chunk)
            }
            index = 0
            peakBufferedBytes = max(peakBufferedBytes, bytes.count)
        }
        return true
    }

    /// Reads on to the end of the input, keeping nothing, so that a source that checks its input at the end
    /// (a ZIP entry's checksum) gets to throw; gives up after `limit` bytes. Returns whether the end was reached.
    func skipToEnd(limit: Int) throws -> Bool {
        var skipped = bytes.count - index
        index = bytes.count
        while skipped <= limit {
            guard try ensure() else { return true }
            skipped += bytes.count - index
            index = bytes.count
        }
        return false
    }

    /// Whether the unread bytes start with `prefix` (reading more if needed).
    func hasPrefix(_ prefix: [UInt8]) throws -> Bool {
        guard try ensure(prefix.count) else { return false }
        for offset in 0..<prefix.count where bytes[index + offset] != prefix[offset] {
            return false
        }
        return true
    }
}
