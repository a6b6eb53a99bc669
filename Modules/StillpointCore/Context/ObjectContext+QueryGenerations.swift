extension ObjectContext {
    /// Pins the context to the store's state now (its query generation, as Core Data's
    /// `setQueryGenerationFrom(.current)`): every fetch, count and dictionary fetch in it then sees that state,
    /// whatever other contexts and processes commit, until ``unpinQueryGeneration()``, a call of this again (which
    /// moves it on to the state then), or its next save that writes (after which its next read pins the state then,
    /// which holds the save).
    ///
    /// Merges still reach the objects the context holds and its live results, as in Core Data: only what the
    /// context reads from the store stays in the generation. See <doc:QueryGenerations>.
    ///
    /// ```swift
    /// try await context.perform { context in
    ///     try context.pinQueryGeneration()
    ///     let before = try context.count(for: FetchRequest(Session.self))
    ///     // ... another context saves a session ...
    ///     let after = try context.count(for: FetchRequest(Session.self))   // == before
    ///     context.unpinQueryGeneration()
    /// }
    /// ```
    ///
    /// - Throws: ``ContextError/queryGenerationUnavailable(store:)`` on SQLite in memory; the store's errors when
    ///   it cannot start the read (a server that cannot be reached).
    public func pinQueryGeneration() throws {
        try graph.pinGeneration()
    }

    /// Ends the context's query generation: the transaction it held ends and its connection goes back to the
    /// store, and reads see the latest state again. Does nothing when the context is not pinned.
    ///
    /// ```swift
    /// await context.perform { $0.unpinQueryGeneration() }
    /// ```
    public func unpinQueryGeneration() {
        graph.unpinGeneration()
    }

    /// Whether the context is pinned to a query generation (``pinQueryGeneration()``).
    public var isPinnedToQueryGeneration: Bool { graph.isPinned }
}
