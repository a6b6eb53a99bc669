/// A predicate over the objects of one entity, `Root`: built from `Root`'s own attributes and relationships
/// through ``EntityKeys``, so that an attribute of another entity does not compile.
///
/// ```swift
/// let request = FetchRequest(Notebook.self, matching: { $0.notes.count > 2 && $0.title.beginsWith("Yoga") })
/// // FetchRequest(Notebook.self, matching: { $0.duration > 600 })   // error: Notebook has no member 'duration'
/// ```
///
/// Its ``predicate`` is the same tree the format parses to, so it compiles to the same SQL on every store and
/// evaluates the same in memory (see <doc:TypedPredicates>).
public struct TypedPredicate<Root: Entity>: Sendable, Hashable {
    /// The untyped predicate, as ``FetchRequest`` and the format take it.
    public let predicate: FetchPredicate

    /// Only the typed keys make one, so a predicate built from another entity's attributes can't become one.
    init(_ predicate: FetchPredicate) {
        self.predicate = predicate
    }

    /// A predicate built from `Root`'s keys, to keep or to join with others before a request takes it.
    ///
    /// ```swift
    /// let busy = TypedPredicate<Notebook> { $0.notes.count > 2 }
    /// let request = FetchRequest(Notebook.self, matching: { busy && $0.title.beginsWith("Yoga") })
    /// ```
    public init(_ build: (EntityKeys<Root>) -> TypedPredicate<Root>) {
        self = build(EntityKeys())
    }

    /// Every object of `Root` (`TRUEPREDICATE`): the start of a list joined in a loop.
    public static var `true`: TypedPredicate { TypedPredicate(.true) }
    /// No object of `Root` (`FALSEPREDICATE`).
    public static var `false`: TypedPredicate { TypedPredicate(.false) }

    /// Matches what both match.
    public static func && (lhs: TypedPredicate, rhs: TypedPredicate) -> TypedPredicate {
        TypedPredicate(lhs.predicate && rhs.predicate)
    }

    /// Matches what either matches.
    public static func || (lhs: TypedPredicate, rhs: TypedPredicate) -> TypedPredicate {
        TypedPredicate(lhs.predicate || rhs.predicate)
    }

    /// Matches what `predicate` does not.
    public static prefix func ! (predicate: TypedPredicate) -> TypedPredicate {
        TypedPredicate(!predicate.predicate)
    }
}
