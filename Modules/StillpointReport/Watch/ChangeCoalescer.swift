import StillpointCore

/// Merges the changes that arrive while a refresh runs into one pending set, so that a watched report keeps up
/// with a large import: at most one refresh is in flight, and the next one covers every change since.
///
/// One task adds change sets as they come; the refreshing loop takes them with ``next()``, which hands over
/// everything pending at once (or waits for the next change).
///
/// ```swift
/// let coalescer = ChangeCoalescer()
/// Task { for await changeSet in watch.changes { coalescer.add(changeSet) }; coalescer.finish() }
/// while let pending = await coalescer.next() {
///     refresh(pending.entityNames)   // the 500 change sets saved during the last refresh, in one
/// }
/// ```
public final class ChangeCoalescer: Sendable {
    /// The changes since the last ``next()``, merged.
    public struct Pending: Sendable, Hashable {
        /// Every entity any of them touched.
        public var entityNames: Set<String> = []
        /// How many change sets were merged.
        public var changeSetCount = 0
        /// The newest change set's sequence number.
        public var lastSequence: Int64 = 0
        /// Who saved them, in order of first appearance.
        public var authors: [String] = []
        /// Every object they inserted, updated or deleted: what a report service reads to tell whose reports
        /// changed. Runs of row ids, so a large import costs little here.
        public var changed = ObjectIDSet()

        mutating func merge(entityNames names: Set<String>, sequence: Int64, author: String, changed ids: ObjectIDSet) {
            entityNames.formUnion(names)
            changed.formUnion(ids)
            changeSetCount += 1
            lastSequence = max(lastSequence, sequence)
            if !authors.contains(author) { authors.append(author) }
        }
    }

    private struct State {
        var pending = Pending()
        var finished = false
        /// The loop waiting in ``next()`` for a change, if any.
        var waiter: CheckedContinuation<Pending?, Never>?
    }

    private let state = LockedState(State())

    public init() {}

    /// Adds a change set to the pending ones; hands them over at once if ``next()`` is waiting.
    public func add(_ changeSet: ChangeSet) {
        add(entityNames: changeSet.entityNames, sequence: changeSet.sequence, author: changeSet.author,
            changed: changeSet.inserted.union(changeSet.updated).union(changeSet.deleted))
    }

    /// Adds a change to the pending ones; hands them over at once if ``next()`` is waiting.
    public func add(entityNames: Set<String>, sequence: Int64, author: String, changed: ObjectIDSet = ObjectIDSet()) {
        let handover: (CheckedContinuation<Pending?, Never>, Pending)? = state.withLock { state in
            guard !state.finished else { return nil }
            state.pending.merge(entityNames: entityNames, sequence: sequence, author: author, changed: changed)
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            defer { state.pending = Pending() }
            return (waiter, state.pending)
        }
        if let (waiter, pending) = handover { waiter.resume(returning: pending) }
    }

    /// No more changes will come: ``next()`` hands over what is pending, then returns `nil`.
    public func finish() {
        let waiter: CheckedContinuation<Pending?, Never>? = state.withLock { state in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// Every change since the last call, merged; waits when there is none yet, and returns `nil` once
    /// ``finish()`` was called and nothing is pending. One caller at a time.
    public func next() async -> Pending? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Pending?, Never>) in
            let ready: Pending?? = state.withLock { state in
                if state.pending.changeSetCount > 0 {
                    defer { state.pending = Pending() }
                    return .some(state.pending)
                }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
