
/// An operation made of blocks that run in order in one shared context; each block says whether to save
/// after it, and ``saveAfterExecution`` saves once they have all run.
///
/// ```swift
/// let operation = ContextBlockOperation(identifier: "tidy")
/// operation.addExecutionBlock { context in
///     for item in try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("title == ''"))) {
///         try context.delete(item)
///     }
///     return true   // save now
/// }
/// operation.addExecutionBlock { context in
///     context.insert(Item.self)[Item.uid] = 99
///     return false  // saved at the end, with saveAfterExecution
/// }
/// queue.addOperation(operation)
/// ```
///
/// The blocks share the context, so a later block sees what an earlier one left, saved or not. The
/// operation stops before the next block once it is cancelled.
public final class ContextBlockOperation: ContextOperation<Void>, @unchecked Sendable {
    /// A block of work: returns `true` to save the context right after it.
    public typealias Block = @Sendable (isolated ObjectContext) async throws -> Bool

    /// Whether to save the context once every block has run.
    public let saveAfterExecution: Bool
    private let blocks = LockedState<[Block]>([])

    /// - Parameters:
    ///   - saveAfterExecution: save once all blocks have run; `true` by default, since a fresh context's
    ///     unsaved changes would otherwise be lost without a word.
    ///   - blocks: the first blocks; ``addExecutionBlock(_:)`` adds more.
    public init(identifier: String? = nil, priority: OperationPriority = .normal, context: ObjectContext? = nil,
                saveAfterExecution: Bool = true, blocks: [Block] = []) {
        self.saveAfterExecution = saveAfterExecution
        self.blocks.withLock { $0 = blocks }
        super.init(identifier: identifier, priority: priority, context: context)
    }

    /// Adds a block after the others. A block added once the operation has started does not run: the operation
    /// fails with ``ContextOperationError/misused(identifier:reason:)`` if it has not finished yet.
    public func addExecutionBlock(_ block: @escaping Block) {
        guard phase == .created || phase == .enqueued else {
            return recordMisuse("a block was added after it started; add blocks before")
        }
        blocks.withLock { $0.append(block) }
    }

    /// The blocks, in the order they run.
    public var executionBlocks: [Block] {
        blocks.withLock { $0 }
    }

    public override func main(context: isolated ObjectContext) async throws {
        let blocks = executionBlocks
        for (index, block) in blocks.enumerated() {
            try checkCancellation()
            if try await block(context) {
                try await context.save()
            }
            reportProgress(completed: index + 1, of: blocks.count)
        }
        if saveAfterExecution {
            try checkCancellation()
            try await context.save()
        }
    }
}
