import Foundation
import StillpointCore
@testable import StillpointReport
import Testing

@Suite("ChangeCoalescer")
struct ChangeCoalescerTests {
    /// 500 change sets saved during one slow refresh: the refresh that follows covers them all at once.
    @Test func changesDuringARefreshMergeIntoTheNextOne() async throws {
        let coalescer = ChangeCoalescer()
        let (refreshing, refreshStarted) = AsyncStream.makeStream(of: Void.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let refresher = Task { () -> [ChangeCoalescer.Pending] in
            var refreshes: [ChangeCoalescer.Pending] = []
            var gate = released.makeAsyncIterator()
            while let pending = await coalescer.next() {
                refreshes.append(pending)
                if refreshes.count == 1 {
                    // The first refresh is slow: it ends only when the test says so.
                    refreshStarted.yield()
                    _ = await gate.next()
                }
            }
            return refreshes
        }
        coalescer.add(entityNames: ["Session"], sequence: 1, author: "import")
        var started = refreshing.makeAsyncIterator()
        _ = await started.next()
        for sequence in 2...501 {
            coalescer.add(entityNames: sequence % 100 == 0 ? ["Note"] : ["Session"], sequence: Int64(sequence), author: "import")
        }
        release.yield()
        coalescer.finish()
        let refreshes = await refresher.value
        #expect(refreshes.count == 2)
        #expect(refreshes.map(\.changeSetCount) == [1, 500])
        #expect(refreshes.last?.lastSequence == 501)
        #expect(refreshes.last?.entityNames == ["Session", "Note"])
        #expect(refreshes.last?.authors == ["import"])
    }

    @Test func aWaitingRefreshGetsTheFirstChangeAtOnce() async {
        let coalescer = ChangeCoalescer()
        let waiting = Task { await coalescer.next() }
        coalescer.add(entityNames: ["Session"], sequence: 7, author: "other")
        let pending = await waiting.value
        #expect(pending?.changeSetCount == 1 && pending?.lastSequence == 7)
    }

    @Test func finishingHandsOverWhatIsPendingThenEnds() async {
        let coalescer = ChangeCoalescer()
        coalescer.add(entityNames: ["Session"], sequence: 1, author: "a")
        coalescer.add(entityNames: ["Session"], sequence: 2, author: "b")
        coalescer.finish()
        coalescer.add(entityNames: ["Session"], sequence: 3, author: "late")
        let first = await coalescer.next()
        #expect(first?.changeSetCount == 2 && first?.authors == ["a", "b"])
        #expect(await coalescer.next() == nil)
    }

    @Test func finishingWakesAWaitingRefresh() async {
        let coalescer = ChangeCoalescer()
        let waiting = Task { await coalescer.next() }
        // Whether next() is already waiting or not, it ends with nil.
        coalescer.finish()
        #expect(await waiting.value == nil)
    }

    /// Whose reports changed is read from the changed objects: those of every change set merged are handed over.
    @Test func theChangedObjectsOfEveryMergedChangeSetAreHandedOver() async throws {
        let coalescer = ChangeCoalescer()
        let first = ChangeSet(sequence: 1, author: "a", timestamp: Date(), inserted: ObjectIDSet(entityName: "Session", rowIDs: [1, 2]),
                              updated: [], deleted: [], changedAttributes: [:])
        let second = ChangeSet(sequence: 2, author: "b", timestamp: Date(), inserted: [],
                               updated: ObjectIDSet(entityName: "Session", rowIDs: [7]),
                               deleted: ObjectIDSet(entityName: "Practitioner", rowIDs: [3]), changedAttributes: [:])
        coalescer.add(first)
        coalescer.add(second)
        coalescer.finish()
        let pending = try #require(await coalescer.next())
        #expect(pending.changed == first.inserted.union(second.updated).union(second.deleted))
        #expect(pending.changed.count == 4)
        #expect(await coalescer.next() == nil)
    }
}
