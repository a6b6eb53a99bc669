extension FetchRequest {
    /// A request for objects of `entityType` matching a ``TypedPredicate`` built from its own attributes and
    /// relationships: another entity's attribute does not compile.
    ///
    /// ```swift
    /// let request = FetchRequest(Batch.self, matching: { $0.entries.count > 2 && $0.name.beginsWith("m") },
    ///                            sortedBy: [.ascending(Batch.name)])
    /// ```
    public init<E: Entity>(_ entityType: E.Type, matching predicate: (EntityKeys<E>) -> TypedPredicate<E>,
                           sortedBy sortKeys: [SortKey] = [], limit: Int? = nil) {
        self.init(E.entity, predicate: predicate(EntityKeys()).predicate, sortedBy: sortKeys, limit: limit)
    }
}
