import Foundation

extension ObjectContext {
    /// Streams the saved rows of `entity` in store order (a table scan: no sort, no index), each with its row ID
    /// and the `attributes` asked for: the cheapest read of a whole table, for a computation that keeps its own
    /// compact copy of a few columns. Unsaved changes of this context are not seen.
    ///
    /// With `rowIDs`, only those rows are read (those that no longer exist are left out). In a scoped context
    /// (``FetchScope``) only the rows in the scope are read, in one statement with the scope's condition (one
    /// practitioner's sessions through the index their column leads).
    ///
    /// ```swift
    /// try context.scanRows(of: Session.entity, attributes: ["start", "duration"]) { row in
    ///     starts.append(row.double(0) ?? 0)
    /// }
    /// ```
    ///
    /// - Throws: ``SchemaError`` for an attribute the entity does not have.
    public func scanRows(of entity: EntityDescription, attributes: [String], rowIDs: [Int64]? = nil,
                         _ body: (borrowing ScannedRow) throws -> Void) throws {
        guard let restriction = scope?.restriction(for: entity) else {
            return try graph.scanRows(of: entity, attributes: attributes, rowIDs: rowIDs, body)
        }
        if let rowIDs, rowIDs.isEmpty { return }
        var request = FetchRequest(entity, predicate: try rowIDs.map { try FetchPredicate("_id IN %@", $0) }.map { $0 && restriction } ?? restriction)
        request.includesPendingChanges = false
        try graph.scanRows(request, attributes: attributes, streaming: false, body)
    }

    /// Streams the saved rows `request` matches (its predicate and this context's scope), in the order of its sort
    /// keys and then of row ids, each with its row ID and the `attributes` asked for, read in place as
    /// ``scanRows(of:attributes:rowIDs:_:)`` reads them: no value or string is made per row. Memory holds a batch of
    /// rows at a time whatever their number (on PostgreSQL a cursor), and `body` may read the store itself. The
    /// request's window and properties are not used; a to-one relationship's name reads the row id of the object
    /// it names (``ScannedRow/integer(_:)``). Unsaved changes of this context are not seen.
    ///
    /// ```swift
    /// let request = FetchRequest(Session.self, sortedBy: [.ascending("practitioner"), .ascending("start")])
    /// try context.scanRows(request, attributes: ["practitioner", "duration"]) { row in
    ///     totals[row.integer(0) ?? 0, default: 0] += row.double(1) ?? 0
    /// }
    /// ```
    ///
    /// - Throws: ``SchemaError`` for an attribute or sort key the entity does not have.
    public func scanRows(_ request: FetchRequest, attributes: [String], _ body: (borrowing ScannedRow) throws -> Void) throws {
        try graph.scanRows(request.scoped(by: scope), attributes: attributes, streaming: true, body)
    }

    /// The position in the change log of the state this context reads: inside ``withPinnedSnapshot(_:)``, the
    /// last change that snapshot holds, so that a copy made in it can later catch up with
    /// ``PersistentContainer/history(after:)``.
    ///
    /// ```swift
    /// let (copy, token) = try context.withPinnedSnapshot { (try makeCopy(context), try context.historyToken()) }
    /// ```
    public func historyToken() throws -> HistoryToken {
        try graph.historyToken()
    }

    /// The change sets saved after `token`, oldest first, as the state this context reads holds them: inside
    /// ``withPinnedSnapshot(_:)``, the same state its fetches read. Throws as
    /// ``PersistentContainer/history(after:)`` does when that history is not complete.
    ///
    /// ```swift
    /// let changes = try context.withPinnedSnapshot { try context.history(after: token) }
    /// ```
    public func history(after token: HistoryToken) throws -> ChangeHistory {
        try graph.history(after: token)
    }
}
