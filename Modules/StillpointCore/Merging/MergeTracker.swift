/// Keeps track of how far each automatically merging context has merged, so that savers can wait for it.
actor MergeTracker {
    private var mergedThrough: [ObjectIdentifier: Int64] = [:]
    private var waiters: [(sequence: Int64, continuation: CheckedContinuation<Void, Never>)] = []

    /// Registers a context that merges automatically, caught up through `sequence`.
    func register(_ context: ObjectIdentifier, through sequence: Int64) {
        mergedThrough[context] = sequence
    }

    func unregister(_ context: ObjectIdentifier) {
        mergedThrough.removeValue(forKey: context)
        resumeReadyWaiters()
    }

    func didMerge(_ context: ObjectIdentifier, through sequence: Int64) {
        guard let current = mergedThrough[context], current < sequence else { return }
        mergedThrough[context] = sequence
        resumeReadyWaiters()
    }

    func waitUntilMerged(through sequence: Int64) async {
        guard !isMerged(through: sequence) else { return }
        await withCheckedContinuation { continuation in
            waiters.append((sequence, continuation))
        }
    }

    private func isMerged(through sequence: Int64) -> Bool {
        mergedThrough.values.allSatisfy { $0 >= sequence }
    }

    private func resumeReadyWaiters() {
        let ready = waiters.filter { isMerged(through: $0.sequence) }
        waiters.removeAll { isMerged(through: $0.sequence) }
        for waiter in ready { waiter.continuation.resume() }
    }
}
