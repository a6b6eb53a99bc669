/// Something that happened to an operation in a queue, published by ``ContextOperationQueue/events`` in the
/// order it happened.
///
/// ```swift
/// for await event in queue.events {
///     switch event.kind {
///     case .finished:
///         if let average = event.result(of: averageOperation) { show(average) }
///     case .progress(let progress): bar.value = progress.fractionCompleted ?? 0
///     case .failed(let error): show(error, for: event.identifier)
///     default: break
///     }
/// }
/// ```
public struct ContextOperationEvent: Sendable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable {
        /// The operation was added to the queue.
        case enqueued
        /// The operation started to run.
        case started
        /// The operation reported progress.
        case progress(OperationProgress)
        /// The operation finished with this result (its saves are merged).
        case finished(any Sendable)
        /// The operation failed with this error (what it saved before is merged; the rest was rolled back).
        case failed(any Error)
        /// The operation was cancelled, before it started or while it ran.
        case cancelled(OperationCancellationReason)
    }

    /// The operation it happened to.
    public let operation: AnyContextOperation
    public let kind: Kind

    public init(operation: AnyContextOperation, kind: Kind) {
        self.operation = operation
        self.kind = kind
    }

    /// The operation's identifier.
    public var identifier: String { operation.identifier }

    /// The typed result, if this is the `.finished` event of `operation`.
    public func result<R>(of operation: ContextOperation<R>) -> R? {
        guard self.operation === operation, case .finished(let value) = kind else { return nil }
        return value as? R
    }

    /// A short name of the kind: `enqueued`, `started`, `progress`, `finished`, `failed` or `cancelled`.
    public var kindName: String {
        switch kind {
        case .enqueued: return "enqueued"
        case .started: return "started"
        case .progress: return "progress"
        case .finished: return "finished"
        case .failed: return "failed"
        case .cancelled: return "cancelled"
        }
    }

    public var description: String { "\(identifier): \(kindName)" }
}
