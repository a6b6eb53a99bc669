/// The changing state of one operation, kept behind its lock.
struct OperationState {
    var phase: ContextOperationPhase = .created
    var priority: OperationPriority
    var dependencyFailurePolicy: DependencyFailurePolicy?
    var dependencies: [AnyContextOperation] = []
    var cancellation: OperationCancellationReason?
    var outcome: ContextOperationOutcome<any Sendable>?
    var progress = OperationProgress()
    /// The queue it was added to; weak, so that a forgotten queue does not live on through its operations.
    var queue = WeakQueue()
    /// The context while the operation runs, so that a cancellation can interrupt its SQLite statement.
    var runningContext: ObjectContext?
    /// Whether this operation interrupted `runningContext`, and so must clear the interrupt when it lets go.
    var didInterrupt = false
    var task: Task<Void, Never>?
    /// The latest change set the work published outside `save()` (a batch operation), to merge before finishing.
    var publishedChangeSet: ChangeSet?
    var waiters: [CheckedContinuation<Void, Never>] = []
    var finishObservers: [@Sendable () -> Void] = []
    /// A mistake in setting the operation up (a cycle of dependencies, the view context...), which fails its run
    /// with this error instead of stopping the process.
    var misuse: ContextOperationError?

    init(priority: OperationPriority) {
        self.priority = priority
    }

    struct WeakQueue {
        weak var value: ContextOperationQueue?
    }
}
