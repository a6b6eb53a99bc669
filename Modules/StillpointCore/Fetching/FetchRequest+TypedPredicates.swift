extension FetchRequest {
    /// A request for objects of `entityType` that match a typed predicate over its attributes.
    ///
    /// The closure receives the entity type, so its attributes read as members, and an attribute of another
    /// entity can't slip in by accident.
    ///
    /// ```swift
    /// let request = FetchRequest(Session.self, where: { $0.duration >= 600 && $0.kind.in(["yoga", "run"]) },
    ///                            sortedBy: [.descending(Session.start)])
    /// ```
    public init<E: Entity>(_ entityType: E.Type, where predicate: (E.Type) -> FetchPredicate,
                           sortedBy sortKeys: [SortKey] = [], limit: Int? = nil) {
        self.init(E.entity, predicate: predicate(entityType), sortedBy: sortKeys, limit: limit)
    }
}
