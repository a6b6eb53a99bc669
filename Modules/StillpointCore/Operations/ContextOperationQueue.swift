import Foundation

/// Runs context operations: a limited number at a time, the highest priority first, each once its
/// dependencies have ended, and tells what happens through a stream of events.
///
/// ```swift
/// let queue = ContextOperationQueue(container: container, maxConcurrentOperationCount: 2)
/// let events = queue.events
/// queue.addOperations(statistics)
/// Task { @MainActor in
///     for await event in events {
///         if case .finished(let value) = event.kind { screen.show(value, for: event.identifier) }
///     }
/// }
/// await queue.waitUntilAllOperationsAreFinished()
/// ```
///
/// When an operation fails or is cancelled, the operations that depend on it are cancelled with that
/// reason, unless ``dependencyFailurePolicy`` (or the dependent's own policy) says to run them anyway. An
/// operation that saved is reported finished only once its saves are merged into the contexts that merge
/// automatically. Nothing here blocks a thread: waiting is done with continuations.
public final class ContextOperationQueue: Sendable {
    /// The container whose store the operations work on; fresh contexts come from it.
    public let container: PersistentContainer
    /// A name for logs.
    public let name: String
    private let state: LockedState<QueueState>

    /// A queue on `container`.
    ///
    /// - Parameters:
    ///   - maxConcurrentOperationCount: how many operations run at once (at least one); the processor count by default.
    ///   - dependencyFailurePolicy: what happens to dependents of a failed or cancelled operation.
    public init(container: PersistentContainer, name: String = "operations",
                maxConcurrentOperationCount: Int = ProcessInfo.processInfo.activeProcessorCount,
                dependencyFailurePolicy: DependencyFailurePolicy = .cancelDependents) {
        self.container = container
        self.name = name
        self.state = LockedState(QueueState(maxConcurrentOperationCount: max(1, maxConcurrentOperationCount),
                                      dependencyFailurePolicy: dependencyFailurePolicy))
    }

    deinit {
        // Subscribers' loops end with the queue.
        for subscriber in state.withLock({ Array($0.subscribers.values) }) { subscriber.finish() }
    }

    // MARK: Settings

    /// How many operations run at once; less than one runs one. Raising it starts waiting operations at once.
    public var maxConcurrentOperationCount: Int {
        get { state.withLock { $0.maxConcurrentOperationCount } }
        set {
            update { $0.maxConcurrentOperationCount = max(1, newValue) }
        }
    }

    /// What happens to the dependents of a failed or cancelled operation, unless they say otherwise.
    public var dependencyFailurePolicy: DependencyFailurePolicy {
        get { state.withLock { $0.dependencyFailurePolicy } }
        set { update { $0.dependencyFailurePolicy = newValue } }
    }

    /// Whether the queue holds back operations that have not started.
    public var isSuspended: Bool {
        state.withLock { $0.isSuspended }
    }

    /// Stops starting operations; running ones go on. Cancelled ones are still reported at once.
    public func suspend() {
        update { $0.isSuspended = true }
    }

    /// Starts operations again after ``suspend()``.
    public func resume() {
        update { $0.isSuspended = false }
    }

    // MARK: Operations

    /// Adds an operation; it starts once its dependencies have ended and a slot is free.
    ///
    /// An operation in a queue already stays where it is: it runs once. One whose context belongs to another
    /// container fails with ``ContextOperationError/misused(identifier:reason:)``.
    public func addOperation(_ operation: AnyContextOperation) {
        addOperations([operation])
    }

    /// Adds operations in order: among equal priorities, the earlier ones start first.
    public func addOperations(_ operations: [AnyContextOperation]) {
        // An operation in a queue already (this one or another) is left where it is.
        let added = operations.filter { $0.enqueue(in: self) }
        for operation in added {
            if let context = operation.context, context.store !== container.store {
                operation.recordMisuse("its context belongs to another container than its queue's; give it one of \(name)'s container")
            }
            // A dependency in another queue (or in none yet) tells this queue when it ends. Registered before
            // the operation waits, so that no ending can slip in between.
            for dependency in operation.dependencies {
                _ = dependency.addFinishObserver { [weak self] in self?.reschedule() }
            }
        }
        update { state in
            for operation in added {
                state.waiting.append(.init(operation: operation, sequence: state.nextSequence))
                state.nextSequence += 1
                state.emit(.enqueued, of: operation)
            }
        }
    }

    /// Adds an operation built from `body` and returns it, for its result.
    ///
    /// ```swift
    /// let count = queue.addOperation(identifier: "count") { context, _ in
    ///     try context.count(for: FetchRequest(Item.self))
    /// }
    /// print(try await count.value)
    /// ```
    @discardableResult
    public func addOperation<Result: Sendable>(
        identifier: String? = nil, priority: OperationPriority = .normal,
        _ body: @escaping ContextOperation<Result>.Body
    ) -> ContextOperation<Result> {
        let operation = ContextOperation(identifier: identifier, priority: priority, body: body)
        addOperation(operation)
        return operation
    }

    /// The operations waiting or running, waiting ones in the order they would start if all were ready.
    public var operations: [AnyContextOperation] {
        state.withLock { state in
            Array(state.running.values) + state.waiting.sorted(by: Self.startsBefore).map(\.operation)
        }
    }

    /// How many operations are waiting or running.
    public var operationCount: Int {
        state.withLock { $0.waiting.count + $0.running.count }
    }

    /// Cancels every waiting and running operation: waiting ones never start, running ones stop.
    public func cancelAllOperations() {
        // Every operation is marked before any slot frees, so that none of them starts in between.
        let tasks = update { state in
            let all = state.waiting.map(\.operation) + Array(state.running.values)
            return all.compactMap { $0.requestCancellation(.queueCancelled).1 }
        }
        for task in tasks { task.cancel() }
    }

    /// Returns once no operation is waiting or running, without blocking a thread.
    public func waitUntilAllOperationsAreFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                if state.waiting.isEmpty && state.running.isEmpty { return true }
                state.idleWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    // MARK: Events

    /// A new stream of everything that happens in the queue from now on, in the order it happens.
    ///
    /// Each access makes a stream of its own; a stream buffers what its reader has not read yet, and ends
    /// when the queue goes away or the reading task is cancelled.
    public var events: AsyncStream<ContextOperationEvent> {
        let (stream, continuation) = AsyncStream<ContextOperationEvent>.makeStream(bufferingPolicy: .unbounded)
        let key = UUID()
        state.withLock { $0.subscribers[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    // MARK: Scheduling

    /// Looks again at the waiting operations: settles those that will never run, starts those that can.
    func reschedule() {
        update { _ in }
    }

    func publishProgress(_ progress: OperationProgress, of operation: AnyContextOperation) {
        state.withLock { state in
            // Progress reported after the end (by a task the operation left behind) is not news.
            guard state.running[ObjectIdentifier(operation)] != nil else { return }
            state.emit(.progress(progress), of: operation)
        }
    }

    /// Changes the state, then schedules, all under the lock; calls the finish observers after it.
    @discardableResult
    private func update<T>(_ change: (inout QueueState) -> T) -> T {
        let (value, observers) = state.withLock { state in
            let value = change(&state)
            return (value, schedule(&state))
        }
        for observer in observers { observer() }
        return value
    }

    /// Settles the operations that will never run, starts the ready ones while slots are free, and wakes
    /// the waiters once the queue is idle. Returns the finish observers to call outside the lock.
    private func schedule(_ state: inout QueueState) -> [@Sendable () -> Void] {
        var observers: [@Sendable () -> Void] = []
        var settledAny = true
        while settledAny {
            settledAny = false
            // Settling one operation can settle its dependents, so go round until nothing changes.
            var index = 0
            while index < state.waiting.count {
                let operation = state.waiting[index].operation
                if let reason = operation.reasonNotToRun(defaultPolicy: state.dependencyFailurePolicy) {
                    state.waiting.remove(at: index)
                    observers += operation.finish(.cancelled(reason))
                    state.emit(.cancelled(reason), of: operation)
                    settledAny = true
                } else {
                    index += 1
                }
            }
            while !settledAny, !state.isSuspended, state.running.count < state.maxConcurrentOperationCount,
                  let index = nextReadyIndex(in: state) {
                let operation = state.waiting.remove(at: index).operation
                guard operation.markRunning() else {
                    // Cancelled since it was looked at: settle it (and its dependents) in the next round.
                    state.waiting.insert(.init(operation: operation, sequence: -1), at: 0)
                    settledAny = true
                    break
                }
                state.running[ObjectIdentifier(operation)] = operation
                state.emit(.started, of: operation)
                let container = self.container
                operation.setTask(Task {
                    let outcome = await operation.run(in: container)
                    self.operationDidEnd(operation, with: outcome)
                })
            }
        }
        if state.waiting.isEmpty, state.running.isEmpty, !state.idleWaiters.isEmpty {
            for waiter in state.idleWaiters { waiter.resume() }
            state.idleWaiters = []
        }
        return observers
    }

    private func operationDidEnd(_ operation: AnyContextOperation, with outcome: ContextOperationOutcome<any Sendable>) {
        update { state in
            state.running.removeValue(forKey: ObjectIdentifier(operation))
            let observers = operation.finish(outcome)
            switch outcome {
            case .finished(let value): state.emit(.finished(value), of: operation)
            case .failed(let error): state.emit(.failed(error), of: operation)
            case .cancelled(let reason): state.emit(.cancelled(reason), of: operation)
            }
            // Nobody else holds the queue's lock now, but observers may call back in: defer them.
            return observers
        }.forEach { $0() }
    }

    /// The waiting operation to start next: ready, highest priority, enqueued first.
    private func nextReadyIndex(in state: QueueState) -> Int? {
        var best: (index: Int, priority: OperationPriority, sequence: Int)?
        for (index, entry) in state.waiting.enumerated() where entry.operation.isReady {
            let priority = entry.operation.priority
            if let current = best, priority < current.priority || (priority == current.priority && entry.sequence > current.sequence) {
                continue
            }
            best = (index, priority, entry.sequence)
        }
        return best?.index
    }

    private static func startsBefore(_ lhs: QueueState.Waiting, _ rhs: QueueState.Waiting) -> Bool {
        let left = lhs.operation.priority, right = rhs.operation.priority
        return left != right ? left > right : lhs.sequence < rhs.sequence
    }
}
