extension ObjectContext {
    /// The objects of `entityType` that match a typed predicate, as ``TypedObject``s.
    ///
    /// ```swift
    /// let busy = try context.fetch(Notebook.self, matching: { $0.notes.count > 2 }, sortedBy: [.ascending(Notebook.title)])
    /// let titles = busy.map(\.title)
    /// ```
    public func fetch<E: Entity>(_ entityType: E.Type, matching predicate: (EntityKeys<E>) -> TypedPredicate<E>,
                                 sortedBy sortKeys: [SortKey] = [], limit: Int? = nil) throws -> [TypedObject<E>] {
        try fetch(FetchRequest(entityType, matching: predicate, sortedBy: sortKeys, limit: limit)).map { TypedObject(unchecked: $0) }
    }

    /// A new object of `entityType`, typed.
    ///
    /// ```swift
    /// let note = context.insertTyped(Note.self)
    /// note.words = 120
    /// ```
    public func insertTyped<E: Entity>(_ entityType: E.Type) -> TypedObject<E> {
        TypedObject(unchecked: insert(entityType))
    }
}
