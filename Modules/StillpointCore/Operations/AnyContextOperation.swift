import Foundation
import Synchronization

/// What every context operation has whatever its result type: an identifier, a priority, dependencies,
/// cancellation and progress. Queues and event streams hold operations through this type.
///
/// Make operations with ``ContextOperation`` (from a closure, or by subclassing it) or one of the ready-made
/// subclasses (``ContextBlockOperation``, ``ExportOperation``, ``ImportOperation``).
///
/// ```swift
/// let load = ContextOperation(identifier: "load") { context, _ in try context.count(for: FetchRequest(Item.self)) }
/// let report = ContextOperation(identifier: "report") { _, operation in
///     "items: \(try operation.result(of: load))"
/// }
/// report.addDependency(load)
/// queue.addOperations([load, report])
/// ```
///
/// An operation is shared between its queue, the code that made it and the task that runs it, so it is
/// `Sendable`: all its changing state lives behind one lock. It is `@unchecked` only because Swift does not
/// check non-final classes; subclasses must keep their own stored properties immutable and `Sendable`.
open class AnyContextOperation: @unchecked Sendable, CustomStringConvertible {
    /// A name for events, logs and errors; unique unless the maker chose otherwise.
    public let identifier: String
    /// The context the operation runs in; `nil` means a fresh background context for each run.
    public let context: ObjectContext?
    let state: LockedState<OperationState>

    private static let counter = Atomic<Int>(0)

    init(identifier: String?, priority: OperationPriority, context: ObjectContext?) {
        let number = Self.counter.add(1, ordering: .relaxed).newValue
        self.identifier = identifier ?? "operation-\(number)"
        self.context = context
        self.state = LockedState(OperationState(priority: priority))
        if context?.isViewContext == true {
            recordMisuse("an operation runs off the main actor: give it a background or child context, not the view context")
        }
    }

    /// Records a mistake in setting the operation up: its run fails with ``ContextOperationError/misused(identifier:reason:)``
    /// (the first mistake's), and a queue never runs its work.
    func recordMisuse(_ reason: String) {
        state.withLock { state in
            if state.misuse == nil { state.misuse = .misused(identifier: identifier, reason: reason) }
        }
    }

    public var description: String { identifier }

    // MARK: Scheduling

    /// How urgently the queue starts this operation among the ready ones; it can change until it starts.
    public var priority: OperationPriority {
        get { state.withLock { $0.priority } }
        set { state.withLock { $0.priority = newValue } }
    }

    /// What happens to this operation when a dependency fails or is cancelled; `nil` follows the queue's
    /// ``ContextOperationQueue/dependencyFailurePolicy``.
    public var dependencyFailurePolicy: DependencyFailurePolicy? {
        get { state.withLock { $0.dependencyFailurePolicy } }
        set { state.withLock { $0.dependencyFailurePolicy = newValue } }
    }

    /// The operations that must end before this one starts.
    public var dependencies: [AnyContextOperation] {
        state.withLock { $0.dependencies }
    }

    /// Makes this operation wait for `dependency` to end, and lets it read the dependency's result.
    ///
    /// The dependency may run in any queue. Add dependencies before enqueueing the operation.
    ///
    /// A dependency on itself, one that would close a cycle (it would wait forever), or one added once the
    /// operation is in a queue is not added: the operation then fails with ``ContextOperationError/misused(identifier:reason:)``
    /// when its queue runs it.
    public func addDependency(_ dependency: AnyContextOperation) {
        if dependency === self {
            return recordMisuse("it was made to depend on itself")
        }
        if dependency.dependsTransitively(on: self) {
            return recordMisuse("'\(dependency.identifier)' already depends on it, so depending on '\(dependency.identifier)' would never start")
        }
        let added = state.withLock { state in
            guard state.phase == .created else { return false }
            if !state.dependencies.contains(where: { $0 === dependency }) {
                state.dependencies.append(dependency)
            }
            return true
        }
        if !added { recordMisuse("a dependency on '\(dependency.identifier)' was added after it was enqueued; add dependencies first") }
    }

    /// Where the operation is in its life.
    public var phase: ContextOperationPhase {
        state.withLock { $0.phase }
    }

    /// Whether the operation is running now.
    public var isExecuting: Bool { phase == .running }

    /// Whether the operation has ended, with a result, an error or a cancellation.
    public var isFinished: Bool { phase == .finished }

    // MARK: Cancelling

    /// Cancels the operation: if it has not started it never will; if it is running, it stops at its next
    /// ``checkCancellation()``, its SQLite statement is interrupted, and its unsaved changes are rolled back.
    ///
    /// ```swift
    /// export.cancel()   // the queue reports `.cancelled(.requested)`, and no file is left behind
    /// ```
    public func cancel() {
        cancel(reason: .requested)
    }

    /// Whether the operation was asked to cancel (it may still be winding down).
    public var isCancelled: Bool {
        state.withLock { $0.cancellation != nil }
    }

    /// Why the operation was asked to cancel, or `nil`.
    public var cancellationReason: OperationCancellationReason? {
        state.withLock { $0.cancellation }
    }

    /// Throws `CancellationError` once the operation was asked to cancel; call it between units of work.
    ///
    /// ```swift
    /// for batch in batches {
    ///     try checkCancellation()
    ///     try process(batch, in: context)
    /// }
    /// ```
    public func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }

    func cancel(reason: OperationCancellationReason) {
        let (changed, task) = requestCancellation(reason)
        guard changed else { return }
        // Outside the lock: cancelling a task runs its cancellation handlers, which may call back in.
        task?.cancel()
        let (queue, observers) = state.withLock { ($0.queue.value, $0.finishObservers) }
        if let queue {
            queue.reschedule()
        } else {
            // Not in a queue, so it will not end soon: the queues of its dependents settle them now.
            for observer in observers { observer() }
        }
    }

    /// Records the cancellation and interrupts the running context; returns whether anything changed and
    /// the task to cancel once no lock is held.
    func requestCancellation(_ reason: OperationCancellationReason) -> (Bool, Task<Void, Never>?) {
        state.withLock { state in
            guard state.phase != .finished, state.cancellation == nil else { return (false, nil) }
            state.cancellation = reason
            if let context = state.runningContext {
                // Under the lock, so that it cannot land after the run has let go of the context.
                context.interrupt()
                state.didInterrupt = true
            }
            return (true, state.task)
        }
    }

    // MARK: Progress

    /// How far the operation has got.
    public var progress: OperationProgress {
        state.withLock { $0.progress }
    }

    /// Reports progress: the queue publishes it as a `.progress` event.
    ///
    /// ```swift
    /// reportProgress(completed: written, of: total, message: "wrote \(written) rows")
    /// ```
    public func reportProgress(completed: Int, of total: Int?, message: String? = nil) {
        updateProgress { progress in
            progress.completedUnitCount = completed
            progress.totalUnitCount = total
            if let message { progress.message = message }
        }
    }

    /// Changes the progress in place, then publishes it.
    public func updateProgress(_ update: (inout OperationProgress) -> Void) {
        let (progress, queue) = state.withLock { state in
            update(&state.progress)
            return (state.progress, state.queue.value)
        }
        queue?.publishProgress(progress, of: self)
    }

    // MARK: Merging

    /// Makes the operation wait, before it reports that it finished, until `changeSet` is merged into the
    /// contexts that merge automatically.
    ///
    /// Saves through `context.save()` are waited for without this; call it for change sets published
    /// another way, such as a batch operation's.
    ///
    /// ```swift
    /// let result = try await context.batchUpdate(request, set: ["kind": .string("yoga")])
    /// operation.mergeBeforeFinishing(result.changeSet)
    /// ```
    public func mergeBeforeFinishing(_ changeSet: ChangeSet?) {
        guard let changeSet else { return }
        state.withLock { state in
            if (state.publishedChangeSet?.sequence ?? .min) < changeSet.sequence {
                state.publishedChangeSet = changeSet
            }
        }
    }

    // MARK: Dependencies' results

    /// How a dependency ended, or `nil` if it has not.
    ///
    /// Under ``DependencyFailurePolicy/runDependents`` an operation uses this to see whether its inputs came.
    public func outcome<R>(of dependency: ContextOperation<R>) -> ContextOperationOutcome<R>? {
        dependency.outcome
    }

    /// The result of a dependency, read from inside this operation.
    ///
    /// ```swift
    /// let total: Double = try operation.result(of: totalOperation)
    /// ```
    ///
    /// - Throws: ``ContextOperationError/notADependency(identifier:)`` for an operation that is not a
    ///   dependency, ``ContextOperationError/dependencyUnavailable(identifier:reason:)`` when it did not finish.
    public func result<R>(of dependency: ContextOperation<R>) throws -> R {
        guard dependencies.contains(where: { $0 === dependency }) else {
            throw ContextOperationError.notADependency(identifier: dependency.identifier)
        }
        switch dependency.outcome {
        case .finished(let result)?:
            return result
        case .failed(let error)?:
            throw ContextOperationError.dependencyUnavailable(identifier: dependency.identifier, reason: "it failed: \(error)")
        case .cancelled(let reason)?:
            throw ContextOperationError.dependencyUnavailable(identifier: dependency.identifier, reason: "it was cancelled: \(reason)")
        case nil:
            throw ContextOperationError.dependencyUnavailable(identifier: dependency.identifier, reason: "it has not ended")
        }
    }

    // MARK: Waiting

    /// Returns once the operation has ended, without blocking a thread.
    public func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state in
                if state.phase == .finished { return true }
                state.waiters.append(continuation)
                return false
            }
            if finished { continuation.resume() }
        }
    }

    // MARK: For subclasses in this module

    /// Runs the operation's work in its context and returns the result; ``ContextOperation`` overrides it.
    func execute(in context: isolated ObjectContext) async throws -> any Sendable {
        throw ContextOperationError.mainNotImplemented(type: String(describing: type(of: self)))
    }

    /// How the operation ended, without its type, or `nil`.
    var erasedOutcome: ContextOperationOutcome<any Sendable>? {
        state.withLock { $0.outcome }
    }

    private func dependsTransitively(on other: AnyContextOperation) -> Bool {
        var stack = dependencies
        var seen: Set<ObjectIdentifier> = []
        while let next = stack.popLast() {
            if next === other { return true }
            if seen.insert(ObjectIdentifier(next)).inserted { stack += next.dependencies }
        }
        return false
    }
}
