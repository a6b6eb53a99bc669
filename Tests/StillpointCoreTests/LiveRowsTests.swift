import Foundation
import Testing
@testable import StillpointCore

/// The chunked rows of a live snapshot behave as the array they stand for, across chunk splits and removals.
@Suite("Live rows")
struct LiveRowsTests {
    static func row(_ id: Int64) -> LiveRow {
        LiveRow(rowID: id, version: 1, values: [.integer(Int64(id)), .string(""), .null], entity: Item.entity)
    }

    @Test func insertsRemovalsAndTruncationsMatchAnArray() {
        var generator = SeededGenerator(seed: 7)
        var model = (0..<Int64(3_000)).map(Self.row)
        var rows = LiveRows(model)
        let shared = rows  // a snapshot that must not change
        var next: Int64 = 10_000
        for step in 0..<6_000 {
            if step % 3 == 0, !model.isEmpty {
                let index = Int.random(in: 0..<model.count, using: &generator)
                model.remove(at: index)
                rows.remove(at: index)
            } else {
                // Bias insertions to one place so that a chunk grows past twice its size and splits.
                let index = step % 2 == 0 ? min(model.count, 1_500) : Int.random(in: 0...model.count, using: &generator)
                model.insert(Self.row(next), at: index)
                rows.insert(Self.row(next), at: index)
                next += 1
            }
        }
        #expect(rows.count == model.count)
        #expect(Array(rows) == model)
        #expect(rows[rows.count - 1] == model[model.count - 1])
        rows.truncate(to: 1_234)
        #expect(Array(rows) == Array(model.prefix(1_234)))
        rows.truncate(to: 0)
        #expect(rows.isEmpty)
        rows.insert(Self.row(1), at: 0)
        #expect(Array(rows) == [Self.row(1)])
        #expect(Array(shared) == (0..<Int64(3_000)).map(Self.row))
    }
}
