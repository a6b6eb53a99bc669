extension ObjectContext {
    /// The objects that match a request, with the context's unsaved changes (unless the request says not to).
    ///
    /// ```swift
    /// let yoga = try context.fetch(FetchRequest(Session.self, predicate: try FetchPredicate("kind == 'yoga'")))
    /// ```
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        try graph.fetchObjects(request.scoped(by: scope))
    }

    /// The IDs of the objects that match a request.
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ObjectID] {
        try graph.fetchObjects(request.scoped(by: scope)).map(\.objectID)
    }

    /// The number of objects that match a request, counted in SQL.
    public func count(for request: FetchRequest) throws -> Int {
        try graph.count(request.scoped(by: scope))
    }

    /// Rows of attributes and aggregates, grouped as the request says, computed in SQL from the saved state.
    ///
    /// ```swift
    /// var request = FetchRequest(Session.self)
    /// request.properties = [.attribute("kind"), .aggregate(.sum, of: "duration", as: "total")]
    /// request.groupBy = ["kind"]
    /// request.having = try FetchPredicate("total > %@", 3600)
    /// let rows = try context.fetchDictionaries(request)
    /// ```
    public func fetchDictionaries(_ request: FetchRequest) throws -> [[String: AttributeValue]] {
        try graph.fetchDictionaries(request.scoped(by: scope))
    }

    /// Streams the matching saved objects through a cursor, `request.batchSize` at a time, so that memory
    /// stays flat however many there are. Objects a batch leaves unchanged are dropped after it.
    ///
    /// ```swift
    /// try context.enumerate(request) { batch in
    ///     for session in batch { total += session[Session.duration] }
    /// }
    /// ```
    public func enumerate(_ request: FetchRequest, batch body: ([ManagedObject]) throws -> Void) throws {
        try graph.enumerate(request.scoped(by: scope), batch: body)
    }

    /// Streams the rows of a dictionary fetch through a cursor, each as the values of the request's properties
    /// in order: the cheapest way to scan many rows, since no object is made.
    ///
    /// ```swift
    /// var request = FetchRequest(Session.self)
    /// request.properties = [.attribute("start"), .attribute("timeZone")]
    /// try context.forEachRow(request) { values in days.insert(day(of: values[0], in: values[1])) }
    /// ```
    public func forEachRow(_ request: FetchRequest, _ body: (ContiguousArray<AttributeValue>) throws -> Void) throws {
        try graph.forEachRow(request.scoped(by: scope), body)
    }
}
