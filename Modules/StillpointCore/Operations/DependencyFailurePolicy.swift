/// What a queue does with an operation when one of its dependencies fails or is cancelled.
///
/// The queue has a default (``ContextOperationQueue/dependencyFailurePolicy``), and an operation can choose
/// its own (``AnyContextOperation/dependencyFailurePolicy``).
///
/// ```swift
/// queue.dependencyFailurePolicy = .runDependents
/// summary.dependencyFailurePolicy = .cancelDependents   // this one still needs every input
/// ```
public enum DependencyFailurePolicy: Hashable, Sendable {
    /// Cancel the dependent, with the dependency's failure or cancellation as the reason. The default: most
    /// operations cannot do without their inputs.
    case cancelDependents
    /// Run the dependent anyway; it reads what happened with ``AnyContextOperation/outcome(of:)``.
    case runDependents
}
