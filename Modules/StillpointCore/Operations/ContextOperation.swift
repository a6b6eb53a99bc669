/// A unit of background work with a typed result, run by a ``ContextOperationQueue`` in a background
/// context of its own (or one it is given).
///
/// Build one from a closure:
///
/// ```swift
/// let average = ContextOperation(identifier: "average_duration") { context, operation in
///     var request = FetchRequest(Session.self)
///     request.properties = [.aggregate(.average, of: "duration", as: "average")]
///     return try context.fetchDictionaries(request).first?["average"]?.numericValue ?? 0
/// }
/// queue.addOperation(average)
/// let seconds = try await average.value
/// ```
///
/// or subclass it and override ``main(context:)`` (a subclass restates `@unchecked Sendable`; see
/// <doc:Operations>):
///
/// ```swift
/// final class CountItems: ContextOperation<Int>, @unchecked Sendable {
///     override func main(context: isolated ObjectContext) async throws -> Int {
///         try checkCancellation()
///         return try context.count(for: FetchRequest(Item.self))
///     }
/// }
/// ```
///
/// Inside the work, ``AnyContextOperation/checkCancellation()`` stops a cancelled run,
/// ``AnyContextOperation/reportProgress(completed:of:message:)`` reports progress, and
/// ``AnyContextOperation/result(of:)`` reads a dependency's result. Saves made in the context are merged
/// into the automatically merging contexts before the operation is reported finished.
open class ContextOperation<Result: Sendable>: AnyContextOperation, @unchecked Sendable {
    /// The work of an operation built from a closure: the context, and the operation itself for progress,
    /// cancellation checks and dependencies' results.
    public typealias Body = @Sendable (isolated ObjectContext, ContextOperation<Result>) async throws -> Result

    private let body: Body?

    /// An operation whose work is ``main(context:)``, for subclasses.
    ///
    /// - Parameters:
    ///   - identifier: a name for events and errors; a unique one is made when `nil`.
    ///   - priority: the order among ready operations.
    ///   - context: a background or child context to run in; `nil` means a fresh background context.
    public override init(identifier: String? = nil, priority: OperationPriority = .normal, context: ObjectContext? = nil) {
        self.body = nil
        super.init(identifier: identifier, priority: priority, context: context)
    }

    /// An operation whose work is `body`.
    public init(identifier: String? = nil, priority: OperationPriority = .normal, context: ObjectContext? = nil,
                body: @escaping Body) {
        self.body = body
        super.init(identifier: identifier, priority: priority, context: context)
    }

    /// The work of the operation, run in its context; subclasses override it. The default runs the body
    /// given at init.
    open func main(context: isolated ObjectContext) async throws -> Result {
        guard let body else {
            throw ContextOperationError.mainNotImplemented(type: String(describing: type(of: self)))
        }
        return try await body(context, self)
    }

    override func execute(in context: isolated ObjectContext) async throws -> any Sendable {
        try await main(context: context)
    }

    /// How the operation ended, or `nil` while it has not.
    public var outcome: ContextOperationOutcome<Result>? {
        switch erasedOutcome {
        case .finished(let value)?:
            // `execute(in:)` only ever stores a `Result`.
            return .finished(value as! Result)  // swiftlint:disable:this force_cast
        case .failed(let error)?: return .failed(error)
        case .cancelled(let reason)?: return .cancelled(reason)
        case nil: return nil
        }
    }

    /// The result, once the operation has ended; throws its error, or ``ContextOperationError/cancelled(_:)``.
    ///
    /// ```swift
    /// let rows = try await export.value
    /// ```
    public var value: Result {
        get async throws {
            await waitUntilFinished()
            guard let outcome else { preconditionFailure("an operation that finished has an outcome") } // swiftlint:disable:this runtime_trap: finish(_:) sets the outcome with the phase
            return try outcome.get()
        }
    }
}
