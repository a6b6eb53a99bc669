extension ObjectContext {
    /// Live results for `request`: its rows now, then each change the context takes in (see ``LiveResults``).
    ///
    /// With `sectionKey`, the rows are divided into sections by that attribute's values; it must be the
    /// request's first sort key. The request's `limit` is kept as a window (the latest 20 sessions stay 20 as
    /// rows come and go); an `offset` is refused.
    ///
    /// ```swift
    /// let request = FetchRequest(Session.self, sortedBy: [.ascending(Session.kind), .descending(Session.start)])
    /// let byKind = try await context.liveResults(for: request, sectionedBy: "kind")
    /// ```
    public func liveResults(for request: FetchRequest, sectionedBy sectionKey: String? = nil) throws -> LiveResults {
        let request = request.scoped(by: scope)
        if parent != nil { throw LiveResultsError.childContext(name) }
        let engine = try LiveResultsEngine(request: request, sectionKey: sectionKey, graph: graph)
        let observer = graph.changeObservers.add(engine)
        return LiveResults(request: request, sectionKey: sectionKey, context: self, broadcast: engine.broadcast, observer: observer)
    }

    func removeChangeObserver(_ observer: UInt64) {
        graph.changeObservers.remove(observer)
    }
}
