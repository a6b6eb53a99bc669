/// The rows of a ``LiveSnapshot``, in order: a random-access collection kept in chunks of about a thousand rows,
/// so that the next snapshot shares every chunk a change did not touch instead of copying every row.
///
/// ```swift
/// let newest = snapshot.rows.first
/// for row in snapshot.rows.prefix(20) { print(row.objectID) }
/// ```
public struct LiveRows: RandomAccessCollection, Sendable, Hashable {
    /// Non-empty chunks, in order.
    private var chunks: [[LiveRow]] = []
    /// The index of each chunk's first row.
    private var starts: [Int] = []
    public private(set) var count = 0

    /// The size chunks are cut to; a chunk that grows to twice this is split.
    static let chunkSize = 1_024

    public init() {}

    init(_ rows: [LiveRow]) {
        var start = 0
        while start < rows.count {
            let end = Swift.min(start + Self.chunkSize, rows.count)
            chunks.append(Array(rows[start..<end]))
            starts.append(start)
            start = end
        }
        count = rows.count
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(index: Int) -> LiveRow {
        let chunk = chunk(containing: index)
        return chunks[chunk][index - starts[chunk]]
    }

    /// The chunk that holds the row at `index` (for `index == count`, the last chunk).
    private func chunk(containing index: Int) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= index { low = middle + 1 } else { high = middle }
        }
        return Swift.max(0, low - 1)
    }

    mutating func insert(_ row: LiveRow, at index: Int) {
        guard !chunks.isEmpty else {
            chunks = [[row]]
            starts = [0]
            count = 1
            return
        }
        let chunk = chunk(containing: index)
        chunks[chunk].insert(row, at: index - starts[chunk])
        for later in (chunk + 1)..<starts.count { starts[later] += 1 }
        count += 1
        if chunks[chunk].count >= 2 * Self.chunkSize {
            let tail = Array(chunks[chunk][Self.chunkSize...])
            chunks[chunk].removeSubrange(Self.chunkSize...)
            chunks.insert(tail, at: chunk + 1)
            starts.insert(starts[chunk] + Self.chunkSize, at: chunk + 1)
        }
    }

    mutating func remove(at index: Int) {
        let chunk = chunk(containing: index)
        chunks[chunk].remove(at: index - starts[chunk])
        for later in (chunk + 1)..<starts.count { starts[later] -= 1 }
        count -= 1
        if chunks[chunk].isEmpty {
            chunks.remove(at: chunk)
            starts.remove(at: chunk)
        }
    }

    /// Keeps the first `count` rows.
    mutating func truncate(to newCount: Int) {
        while count > newCount, let last = chunks.indices.last {
            let excess = count - newCount
            if chunks[last].count <= excess {
                count -= chunks[last].count
                chunks.removeLast()
                starts.removeLast()
            } else {
                chunks[last].removeLast(excess)
                count = newCount
            }
        }
    }

    public static func == (lhs: LiveRows, rhs: LiveRows) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for row in self { hasher.combine(row) }
    }
}
