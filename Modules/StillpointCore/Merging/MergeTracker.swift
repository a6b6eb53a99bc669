/// Keeps track of how far each automatically merging context has merged (in ``ChangeSetHub`` publication
/// numbers), so that savers can wait for it.
actor MergeTracker {
    private var mergedThrough: [ObjectIdentifier: Int64] = [:]
    private var waiters: [(publication: Int64, continuation: CheckedContinuation<Void, Never>)] = []

    /// Registers a context that merges automatically, caught up through publication number `publication`.
    func register(_ context: ObjectIdentifier, through publication: Int64) {
        mergedThrough[context] = publication
    }

    func unregister(_ context: ObjectIdentifier) {
        mergedThrough.removeValue(forKey: context)
        resumeReadyWaiters()
    }

    func didMerge(_ context: ObjectIdentifier, through publication: Int64) {
        guard let current = mergedThrough[context], current < publication else { return }
        mergedThrough[context] = publication
        resumeReadyWaiters()
    }

    func waitUntilMerged(through publication: Int64) async {
        guard !isMerged(through: publication) else { return }
        await withCheckedContinuation { continuation in
            waiters.append((publication, continuation))
        }
    }

    private func isMerged(through publication: Int64) -> Bool {
        mergedThrough.values.allSatisfy { $0 >= publication }
    }

    private func resumeReadyWaiters() {
        let ready = waiters.filter { isMerged(through: $0.publication) }
        waiters.removeAll { isMerged(through: $0.publication) }
        for waiter in ready { waiter.continuation.resume() }
    }
}
