@testable import StillpointStatistics
import Testing

/// The digest's row ids as 32-bit offsets from a base that moves down, and as 64-bit ids when they span more.
@Suite("row id column")
struct RowIDColumnTests {
    private func ids(_ column: RowIDColumn) -> [Int64] { (0..<column.count).map { column[$0] } }

    @Test func idsAboveTheBaseAreHeldInFourBytesEach() {
        var column = RowIDColumn()
        #expect(column.last == nil)
        for id: Int64 in [5_000_000_000, 5_000_000_001, 5_000_000_100, 5_000_000_000 + Int64(UInt32.max)] {
            column.append(id)
        }
        #expect(ids(column) == [5_000_000_000, 5_000_000_001, 5_000_000_100, 5_000_000_000 + Int64(UInt32.max)])
        #expect(column.last == 5_000_000_000 + Int64(UInt32.max))
        #expect(!column.isWide)
        #expect(column.byteCount == 4 * 4)
    }

    @Test func anIDBelowTheBaseMovesTheBaseDown() {
        var column = RowIDColumn()
        for id: Int64 in [1_000, 1_001, 1_005] { column.append(id) }
        column.insert(7, at: 0)
        column.insert(1_003, at: 3)
        column.insert(-2, at: 0)
        #expect(ids(column) == [-2, 7, 1_000, 1_001, 1_003, 1_005])
        #expect(!column.isWide)
        #expect(column.byteCount == 6 * 4)
    }

    @Test(arguments: [
        [Int64(0), Int64(UInt32.max) + 1],            // above: past the last offset
        [Int64(UInt32.max), 0, Int64(UInt32.max) + 1], // the base moved down, then one past it
        [Int64.max, Int64.min],                        // the widest ids a store can give
    ])
    func idsSpanningMoreThanThirtyTwoBitsAreHeldInEight(_ inserted: [Int64]) {
        var column = RowIDColumn()
        var expected: [Int64] = []
        for id in inserted {
            let index = expected.firstIndex { $0 > id } ?? expected.count
            column.insert(id, at: index)
            expected.insert(id, at: index)
        }
        #expect(ids(column) == expected)
        #expect(column.isWide)
        #expect(column.byteCount == expected.count * 8)
        column.append(Int64.max)
        #expect(column.last == .max)
    }

    @Test func trimmingLeavesNoRoomBeyondTheIDs() {
        var column = RowIDColumn()
        for id in Int64(100)..<400 { column.append(id) }
        column.trimCapacity()
        #expect(column.spareBytes <= 32)
        column.reserveGently(1)
        column.append(400)
        #expect(column.capacity < 340)
        #expect(ids(column) == Array(100...400))
    }
}
