/// Deletes every row a request matches with one SQL statement, without loading objects, as an operation.
///
/// It finishes once its change set is merged into the contexts that merge automatically, so whoever sees
/// it finish no longer sees the deleted objects there.
///
/// ```swift
/// let purge = BatchDeleteOperation(FetchRequest(Session.self, predicate: try FetchPredicate("duration < 5")))
/// queue.addOperation(purge)
/// print(try await purge.value.count)   // rows deleted
/// ```
public final class BatchDeleteOperation: ContextOperation<BatchResult>, @unchecked Sendable {
    /// The rows to delete: the request's entity and predicate (its order and window are not used).
    public let request: FetchRequest

    public init(_ request: FetchRequest, identifier: String? = nil, priority: OperationPriority = .normal,
                context: ObjectContext? = nil) {
        self.request = request
        super.init(identifier: identifier, priority: priority, context: context)
    }

    public override func main(context: isolated ObjectContext) async throws -> BatchResult {
        try checkCancellation()
        let result = try await context.batchDelete(request)
        mergeBeforeFinishing(result.changeSet)
        reportProgress(completed: result.count, of: result.count, message: "deleted \(result.count) \(request.entity.name) rows")
        return result
    }
}
