/// The digest's row ids in ascending order, held as 32-bit offsets from a base: 4 bytes a session, where the
/// store's 64-bit ids took 8, for a digest kept for each of thousands of practitioners.
///
/// The base is the lowest id held and moves down when a lower one comes in (a session moved in from another
/// practitioner can have a lower id than any of theirs): the offsets are shifted once. Ids more than 2³² - 1
/// apart fall back to 64 bits, so that every id the store gives is held exactly.
///
/// ```swift
/// var ids = RowIDColumn()
/// ids.append(5_000_000_123)
/// ids.insert(4_999_999_000, at: 0)   // the base moves down; both are held in 32 bits
/// ids[1]                             // 5_000_000_123
/// ```
struct RowIDColumn: Sendable {
    private var base: Int64 = 0
    private var offsets: [UInt32] = []
    /// Every id, when they span more than 32 bits; `offsets` is empty then.
    private var wide: [Int64]?

    var count: Int { wide?.count ?? offsets.count }
    var isEmpty: Bool { count == 0 }
    var last: Int64? { isEmpty ? nil : self[count - 1] }
    var capacity: Int { wide?.capacity ?? offsets.capacity }
    /// The bytes of room held beyond the ids.
    var spareBytes: Int {
        wide.map { ($0.capacity - $0.count) * MemoryLayout<Int64>.stride }
            ?? (offsets.capacity - offsets.count) * MemoryLayout<UInt32>.stride
    }
    /// Whether the ids span more than 32 bits and are held in 64.
    var isWide: Bool { wide != nil }
    /// The bytes the ids take (the base aside).
    var byteCount: Int { wide.map { $0.count * MemoryLayout<Int64>.stride } ?? offsets.count * MemoryLayout<UInt32>.stride }

    subscript(index: Int) -> Int64 {
        if let wide { return wide[index] }
        return base + Int64(offsets[index])
    }

    /// Adds `rowID`, at least every id held.
    mutating func append(_ rowID: Int64) {
        insert(rowID, at: count)
    }

    /// Puts `rowID` at `index`, the place that keeps the ids ascending.
    mutating func insert(_ rowID: Int64, at index: Int) {
        if offsets.isEmpty && wide == nil { base = rowID }
        if rowID < base { lowerBase(to: rowID) }
        if wide != nil {
            wide?.insert(rowID, at: index)
        } else if case let (difference, overflow) = rowID.subtractingReportingOverflow(base), !overflow,
                  let offset = UInt32(exactly: difference) {
            offsets.insert(offset, at: index)
        } else {
            widen()
            wide?.insert(rowID, at: index)
        }
    }

    mutating func reserveCapacity(_ capacity: Int) {
        if wide != nil { wide?.reserveCapacity(capacity) } else { offsets.reserveCapacity(capacity) }
    }

    mutating func reserveGently(_ more: Int) {
        if wide != nil { wide?.reserveGently(more) } else { offsets.reserveGently(more) }
    }

    mutating func trimCapacity() {
        if let exact = wide?.withExactCapacity() { wide = exact } else { offsets = offsets.withExactCapacity() }
    }

    /// Makes `rowID` the base, shifting the offsets up; 64 bits when the highest no longer fits.
    private mutating func lowerBase(to rowID: Int64) {
        guard wide == nil else { return }
        let (shift, overflow) = base.subtractingReportingOverflow(rowID)
        guard !overflow, let highest = offsets.last, let shift32 = UInt32(exactly: shift),
              highest <= UInt32.max - shift32 else {
            widen()
            return
        }
        for index in offsets.indices { offsets[index] += shift32 }
        base = rowID
    }

    private mutating func widen() {
        guard wide == nil else { return }
        wide = (0..<offsets.count).map { base + Int64(offsets[$0]) }
        offsets = []
    }
}
