extension ObjectContext {
    /// Deletes every row a request matches with one SQL statement, without loading objects.
    ///
    /// The change set it publishes reaches contexts that merge automatically; this context drops the
    /// deleted objects it holds at once. Works on file and in-memory stores alike.
    ///
    /// ```swift
    /// let result = try await context.batchDelete(FetchRequest(Session.self, predicate: try FetchPredicate("duration < 5")))
    /// print(result.count)
    /// ```
    @discardableResult
    public func batchDelete(_ request: FetchRequest) async throws -> BatchResult {
        try await runBatch(.delete(request.scoped(by: scope)))
    }

    /// Deletes what each request matches, in order, in one write transaction: all of them or none. A later
    /// request's predicate sees what the earlier ones deleted, and two such groups never run at once, on either
    /// store, even from two processes: each sees all of what the other deleted, or none of it. One result per
    /// request, each with its own change set.
    ///
    /// ```swift
    /// let results = try await context.batchDelete([FetchRequest(Session.self, predicate: orphans),
    ///                                              FetchRequest(ImportRun.self, predicate: thisRun)])
    /// ```
    @discardableResult
    public func batchDelete(_ requests: [FetchRequest]) async throws -> [BatchResult] {
        try await runBatches(requests.map { .delete($0.scoped(by: scope)) })
    }

    /// Sets attributes on every row a request matches with one SQL statement, without loading objects.
    ///
    /// ```swift
    /// try await context.batchUpdate(FetchRequest(Session.self, predicate: try FetchPredicate("kind == 'Yoga'")),
    ///                               set: ["kind": .string("yoga")])
    /// ```
    @discardableResult
    public func batchUpdate(_ request: FetchRequest, set values: [String: AttributeValue]) async throws -> BatchResult {
        let request = request.scoped(by: scope)
        // A row moved out of the scope would be out of reach of the context that moved it.
        if let scope = request.scope, let column = FetchScope.path(from: request.entity, to: scope.entityName)?.first, values[column] != nil {
            throw ContextError.outsideScope(entity: request.entity.name, relationship: column)
        }
        return try await runBatch(.update(request, values: values))
    }

    /// Inserts rows from dictionaries in one transaction, without making objects. Missing attributes take
    /// their defaults.
    ///
    /// A row whose unique key is already stored follows the context's merge policy for the entity, as an
    /// inserted object does at save: `error` fails the whole batch with a ``SaveError/validation(_:)`` that names
    /// the stored row, and writes nothing; `mergeByPropertyObjectTrump` writes the attributes the row names into
    /// the stored row, `overwrite` writes the whole row, and `mergeByPropertyStoreTrump` and `rollback` leave the
    /// stored row as it is. Updated rows are in the change set's `updated`, and in the result.
    ///
    /// ```swift
    /// await context.setMergePolicy(.mergeByPropertyObjectTrump)
    /// try await context.batchInsert(Session.entity, rows: [["id": .string("abc"), "duration": .double(600)]])
    /// ```
    @discardableResult
    public func batchInsert(_ entity: EntityDescription, rows: [[String: AttributeValue]]) async throws -> BatchResult {
        try await runBatch(.insert(entity, rows: rows))
    }

    private func runBatch(_ statement: BatchStatement) async throws -> BatchResult {
        // One result per statement: the only one.
        let results = try await runBatches([statement])
        return results.first ?? BatchResult(count: 0, objectIDs: ObjectIDSet(), changeSet: nil)
    }

    /// Runs the statements in order in one write transaction; one result per statement.
    private func runBatches(_ statements: [BatchStatement]) async throws -> [BatchResult] {
        for statement in statements { try statement.validate() }
        let hub = self.hub
        let flag = interruptFlag
        let author = name
        let origin = graph.origin
        let schema = store.schema
        let steps = try statements.map { statement in
            (statement: statement, policy: graph.policy(for: statement.entity), deleting: try Self.deleteWithRules(statement, in: schema))
        }
        // Every result, in order, and those of each statement itself.
        let run = { @Sendable [steps] (writer: any StoreWriter) throws -> (all: [BatchResult], own: [[BatchResult]]) in
            var all: [BatchResult] = [], own: [[BatchResult]] = []
            if steps.count > 1 { try writer.takeTurnWithOtherGroupedBatches() }
            for (statement, policy, deleting) in steps {
                guard let deleting else {
                    let result = try writer.run(statement, author: author, origin: origin, policy: policy, hub: hub)
                    all.append(result)
                    own.append([result])
                    continue
                }
                // The rows to delete, read once: the rules' steps change rows the request's predicate may read (a
                // cascade deletes what `ANY entries…` looks at), so each step and the delete name the rows by id.
                var ids: [Int64] = []
                try writer.forEachRowID(deleting) { ids.append($0) }
                var statementResults: [BatchResult] = []
                for start in stride(from: 0, to: ids.count, by: BatchDeleteRules.rowsPerStep) {
                    let chunk = FetchRequest(deleting.entity, predicate: BatchDeleteRules.rows(Array(ids[start..<min(start + BatchDeleteRules.rowsPerStep, ids.count)])))
                    for step in try BatchDeleteRules.steps(deleting: chunk, in: schema) {
                        switch step {
                        case .statement(let ruleStatement):
                            all.append(try writer.run(ruleStatement, author: author, origin: origin, policy: policy, hub: hub))
                        case .deny(let related, let relationship, let entity):
                            let count = try writer.count(related)
                            guard count == 0 else {
                                throw SaveError.validation([ValidationFailure(objectID: .temporary(entityName: entity), reason: .deleteDenied(relationship: relationship, related: count))])
                            }
                        }
                    }
                    statementResults.append(try writer.run(.delete(chunk), author: author, origin: origin, policy: policy, hub: hub))
                    all.append(statementResults[statementResults.count - 1])
                }
                own.append(statementResults)
            }
            return (all, own)
        }
        let results: (all: [BatchResult], own: [[BatchResult]])
        if isViewContext {
            results = try await store.writingAsync(interruptedBy: flag, run)
        } else {
            results = try store.writing(interruptedBy: flag, run)
        }
        for result in results.all {
            if let changeSet = result.changeSet { try graph.merge(changeSet) }
        }
        return results.own.map { own in
            if own.count == 1 { return own[0] }
            // A delete in several groups of rows (or none): one result for them all, with the change set of the last.
            return BatchResult(count: own.reduce(0) { $0 + $1.count },
                               objectIDs: own.reduce(ObjectIDSet()) { $0.union($1.objectIDs) },
                               changeSet: own.last { $0.changeSet != nil }?.changeSet)
        }
    }

    /// The request of a delete that the schema's delete rules act on, or `nil` when the statement runs as it is.
    private static func deleteWithRules(_ statement: BatchStatement, in schema: Schema) throws -> FetchRequest? {
        guard case .delete(let request) = statement, !(try BatchDeleteRules.steps(deleting: request, in: schema)).isEmpty else { return nil }
        return request
    }
}
