import Foundation
@testable import StillpointCore
import Testing

/// Waiting for merges follows the order change sets were published in, not their sequence numbers, which on
/// PostgreSQL are handed out before commit: another process's change set may come later with a lower number.
struct ChangeSetHubTests {
    private func changeSet(_ sequence: Int64) -> ChangeSet {
        ChangeSet(sequence: sequence, author: "test", timestamp: Date(), inserted: ObjectIDSet(), updated: ObjectIDSet(),
                  deleted: ObjectIDSet(), changedAttributes: [:])
    }

    @Test func publicationNumbersFollowThePublishingOrder() {
        let hub = ChangeSetHub()
        let later = changeSet(105), earlier = changeSet(100)
        hub.publish(later)
        hub.publish(earlier)
        #expect(hub.publication(of: later) == 1)
        #expect(hub.publication(of: earlier) == 2)
        #expect(hub.lastPublication == 2)
        #expect(hub.lastSequence == 105)
        #expect(hub.publication(of: changeSet(7)) == 0)
    }

    @Test func aSaverWaitsForItsOwnChangeSetEvenAfterOneWithAHigherNumberWasMerged() async {
        let hub = ChangeSetHub()
        let tracker = MergeTracker()
        let context = ObjectIdentifier(hub)
        await tracker.register(context, through: hub.lastPublication)
        let other = changeSet(105), own = changeSet(100)
        hub.publish(other)
        hub.publish(own)
        await tracker.didMerge(context, through: hub.publication(of: other))

        let waited = LockedState(false)
        let waiter = Task {
            await tracker.waitUntilMerged(through: hub.publication(of: own))
            waited.withLock { $0 = true }
        }
        try? await Task.sleep(for: .milliseconds(100))
        #expect(!waited.withLock { $0 }, "returned before the context merged the saver's change set")
        await tracker.didMerge(context, through: hub.publication(of: own))
        await waiter.value
        #expect(waited.withLock { $0 })
    }
}
