/// How a queue drives an operation: enqueue, start, run in a context, finish.
extension AnyContextOperation {
    /// Marks the operation as waiting in `queue`; `false` when it is in a queue already (or ran): an operation
    /// goes into one queue, once, and adding it again changes nothing.
    func enqueue(in queue: ContextOperationQueue) -> Bool {
        state.withLock { state in
            guard state.phase == .created else { return false }
            state.phase = .enqueued
            state.queue.value = queue
            return true
        }
    }

    /// The reason a waiting operation will never run, if there is one: it was cancelled, or (under the
    /// cancel-dependents policy) a dependency failed or was cancelled.
    func reasonNotToRun(defaultPolicy: DependencyFailurePolicy) -> OperationCancellationReason? {
        let (cancellation, policy, dependencies) = state.withLock { ($0.cancellation, $0.dependencyFailurePolicy, $0.dependencies) }
        if let cancellation { return cancellation }
        guard (policy ?? defaultPolicy) == .cancelDependents else { return nil }
        for dependency in dependencies {
            let (phase, outcome, cancellation) = dependency.state.withLock { ($0.phase, $0.outcome, $0.cancellation) }
            switch outcome {
            case .failed(let error)?:
                return .dependencyFailed(identifier: dependency.identifier, error: error)
            case .cancelled(let reason)?:
                return .dependencyCancelled(identifier: dependency.identifier, reason: reason)
            case .finished?:
                continue
            case nil:
                // A dependency cancelled before it started will never run, even if it is in no queue yet.
                if let cancellation, phase == .created || phase == .enqueued {
                    return .dependencyCancelled(identifier: dependency.identifier, reason: cancellation)
                }
            }
        }
        return nil
    }

    /// Whether every dependency has ended.
    var isReady: Bool {
        dependencies.allSatisfy(\.isFinished)
    }

    /// Moves a waiting operation to running; `false` if it was cancelled in the meantime.
    func markRunning() -> Bool {
        state.withLock { state in
            guard state.cancellation == nil else { return false }
            state.phase = .running
            return true
        }
    }

    /// Keeps the task that runs the operation, for cancellation; cancels it at once if that was asked already.
    func setTask(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state in
            state.task = task
            return state.cancellation != nil
        }
        if cancelled { task.cancel() }
    }

    /// Ends the operation: records its outcome, wakes whoever waits for it, and returns the observers to call
    /// once the caller holds no lock.
    func finish(_ outcome: ContextOperationOutcome<any Sendable>) -> [@Sendable () -> Void] {
        let (waiters, observers) = state.withLock { state in
            state.phase = .finished
            state.outcome = outcome
            state.task = nil
            state.queue.value = nil
            defer {
                state.waiters = []
                state.finishObservers = []
            }
            return (state.waiters, state.finishObservers)
        }
        for waiter in waiters { waiter.resume() }
        return observers
    }

    /// Calls `observer` once the operation has ended; `false` (and no call) if it has ended already.
    func addFinishObserver(_ observer: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard state.phase != .finished else { return false }
            state.finishObservers.append(observer)
            return true
        }
    }

    // MARK: Running

    /// Runs the operation in its context and returns how it ended, once its saves are merged.
    ///
    /// A failed or cancelled run rolls back what it did not save. Whatever it did save stays, and is merged
    /// before the run returns, so that whoever sees the operation end also sees its saves.
    func run(in container: PersistentContainer) async -> ContextOperationOutcome<any Sendable> {
        if let misuse = state.withLock({ $0.misuse }) { return .failed(misuse) }
        let context = self.context ?? container.newBackgroundContext(name: "operation.\(identifier)")
        guard attach(context) else {
            return .cancelled(cancellationReason ?? .requested)
        }
        let (outcome, saved) = await context.perform { context -> (ContextOperationOutcome<any Sendable>, ChangeSet?) in
            let before = context.lastSavedChangeSet?.sequence
            var outcome: ContextOperationOutcome<any Sendable>
            do {
                outcome = .finished(try await self.execute(in: context))
            } catch {
                // Whatever error a cancelled run ends with (often the interrupted statement's), it was cancelled.
                outcome = self.cancellationReason.map { .cancelled($0) } ?? .failed(error)
                context.rollback()
            }
            let last = context.lastSavedChangeSet
            return (outcome, last?.sequence != before ? last : nil)
        }
        detach(context)
        // Merging through the latest change set means merging through every earlier one too.
        let published = state.withLock { $0.publishedChangeSet }
        let latest = [saved, published].compactMap { $0 }.max { container.hub.publication(of: $0) < container.hub.publication(of: $1) }
        if let latest {
            await container.waitUntilMerged(latest)
        }
        return outcome
    }

    /// Makes `context` the one a cancellation interrupts; `false` if the operation was cancelled already.
    private func attach(_ context: ObjectContext) -> Bool {
        state.withLock { state in
            guard state.cancellation == nil else { return false }
            state.runningContext = context
            return true
        }
    }

    /// Lets go of the context, clearing the interrupt this operation set so that the context works again.
    private func detach(_ context: ObjectContext) {
        state.withLock { state in
            if state.didInterrupt { context.clearInterrupt() }
            state.runningContext = nil
            state.didInterrupt = false
        }
    }
}
