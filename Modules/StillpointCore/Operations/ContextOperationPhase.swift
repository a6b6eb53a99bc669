/// Where an operation is in its life: made, waiting in a queue, running, or done.
///
/// ```swift
/// queue.addOperation(operation)
/// operation.phase   // .enqueued, then .running, then .finished
/// ```
public enum ContextOperationPhase: Hashable, Sendable {
    /// Made, and not in a queue yet; dependencies can still be added.
    case created
    /// In a queue, waiting for its dependencies, a free slot, or the queue to resume.
    case enqueued
    /// Running in its context (or waiting for its saves to be merged).
    case running
    /// Done: see ``AnyContextOperation/isCancelled`` and the typed outcome for how.
    case finished
}
