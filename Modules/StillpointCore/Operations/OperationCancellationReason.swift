/// Why an operation was cancelled: asked directly, by its queue, or because of a dependency.
///
/// Reasons chain: if `load` fails, `summary` (which depends on it) is cancelled with `.dependencyFailed`,
/// and `report` (which depends on `summary`) with `.dependencyCancelled("summary", reason: ...)`.
///
/// ```swift
/// if case .cancelled(let reason) = event.kind {
///     print("\(event.identifier) cancelled: \(reason)")   // "report cancelled: its dependency 'summary' was ..."
/// }
/// ```
public indirect enum OperationCancellationReason: Sendable, CustomStringConvertible {
    /// ``AnyContextOperation/cancel()`` was called.
    case requested
    /// ``ContextOperationQueue/cancelAllOperations()`` was called.
    case queueCancelled
    /// A dependency failed with `error`.
    case dependencyFailed(identifier: String, error: any Error)
    /// A dependency was cancelled, for `reason`.
    case dependencyCancelled(identifier: String, reason: OperationCancellationReason)

    /// The reason at the start of a chain of cancelled dependencies.
    public var rootCause: OperationCancellationReason {
        if case .dependencyCancelled(_, let reason) = self { return reason.rootCause }
        return self
    }

    public var description: String {
        switch self {
        case .requested:
            return "cancelled on request"
        case .queueCancelled:
            return "its queue cancelled all operations"
        case .dependencyFailed(let identifier, let error):
            return "its dependency '\(identifier)' failed: \(error)"
        case .dependencyCancelled(let identifier, let reason):
            return "its dependency '\(identifier)' was cancelled (\(reason))"
        }
    }
}
