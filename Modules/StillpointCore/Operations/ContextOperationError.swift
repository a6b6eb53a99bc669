import Foundation

/// A mistake in using operations, or the error that stands for a cancellation.
///
/// ```swift
/// do {
///     let total = try await operation.value
/// } catch ContextOperationError.cancelled(let reason) {
///     print("no total: \(reason)")
/// }
/// ```
public enum ContextOperationError: Error, Sendable, LocalizedError {
    /// The operation was cancelled before it could produce a result.
    case cancelled(OperationCancellationReason)
    /// A dependency's result was asked for, but the dependency failed or was cancelled (possible under
    /// ``DependencyFailurePolicy/runDependents``).
    case dependencyUnavailable(identifier: String, reason: String)
    /// A result was asked for from an operation that is not a dependency, so nothing says it has finished.
    case notADependency(identifier: String)
    /// An operation was made without a body and its subclass does not override `main(context:)`.
    case mainNotImplemented(type: String)
    /// The operation was set up in a way it cannot run (`reason` says how): it fails when its queue runs it.
    case misused(identifier: String, reason: String)

    public var errorDescription: String? {
        switch self {
        case .cancelled(let reason):
            return "the operation was cancelled: \(reason)"
        case .dependencyUnavailable(let identifier, let reason):
            return "the dependency '\(identifier)' has no result (\(reason)); check outcome(of:) before reading result(of:)"
        case .notADependency(let identifier):
            return "'\(identifier)' is not a dependency of this operation; add it with addDependency(_:) before enqueueing"
        case .mainNotImplemented(let type):
            return "\(type) has no body: pass one to init(identifier:priority:context:body:) or override main(context:)"
        case .misused(let identifier, let reason):
            return "'\(identifier)' cannot run: \(reason)"
        }
    }
}
