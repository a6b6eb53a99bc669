/// How an operation ended: with its result, with an error, or cancelled.
///
/// ```swift
/// switch operation.outcome {
/// case .finished(let total)?: print(total)
/// case .failed(let error)?: print("failed: \(error)")
/// case .cancelled(let reason)?: print("cancelled: \(reason)")
/// case nil: print("still to come")
/// }
/// ```
public enum ContextOperationOutcome<Result: Sendable>: Sendable {
    case finished(Result)
    case failed(any Error)
    case cancelled(OperationCancellationReason)

    /// The result, or the error that stands for the failure or the cancellation.
    public func get() throws -> Result {
        switch self {
        case .finished(let result): return result
        case .failed(let error): throw error
        case .cancelled(let reason): throw ContextOperationError.cancelled(reason)
        }
    }

    /// Whether the operation finished with a result.
    public var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }
}
