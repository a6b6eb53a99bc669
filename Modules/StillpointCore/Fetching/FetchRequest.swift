/// A description of what to fetch: an entity, a predicate, an order, a window and, for dictionary results,
/// the properties, aggregates and grouping.
///
/// ```swift
/// var request = FetchRequest(Session.self, predicate: try FetchPredicate("kind == %@", "yoga"))
/// request.sortKeys = [.descending(Session.start)]
/// request.limit = 10
/// let sessions = try context.fetch(request)
///
/// var totals = FetchRequest(Session.self)
/// totals.properties = [.attribute("kind"), .aggregate(.sum, of: "duration", as: "total")]
/// totals.groupBy = ["kind"]
/// let rows = try context.fetchDictionaries(totals)   // [["kind": "yoga", "total": 5400], ...]
/// ```
public struct FetchRequest: Sendable {
    public var entity: EntityDescription { didSet { restrictToScope() } }
    /// The rows to fetch: the condition set here, ANDed with the ``scope``'s restriction of ``entity`` when a
    /// scope is set. Every store statement and in-memory match reads the request through it, so none skips the scope.
    public var predicate: FetchPredicate? {
        get {
            guard let scopeRestriction else { return ownPredicate }
            return ownPredicate.map { $0 && scopeRestriction } ?? scopeRestriction
        }
        set { ownPredicate = newValue }
    }
    /// The part of the store the request sees (<doc:Scopes>); a context's scope is set on each request it runs
    /// that has none.
    ///
    /// ```swift
    /// request.scope = try FetchScope(Practitioner.self, try FetchPredicate("id == %@", "alice"))
    /// ```
    public var scope: FetchScope? { didSet { restrictToScope() } }
    private var ownPredicate: FetchPredicate?
    private var scopeRestriction: FetchPredicate?
    public var sortKeys: [SortKey]
    public var limit: Int?
    public var offset: Int?
    /// How many objects ``ObjectContext/enumerate(_:batch:)`` reads at a time; memory stays flat beyond it.
    public var batchSize: Int
    /// Whether object fetches and counts see the context's unsaved inserts, changes and deletes.
    public var includesPendingChanges: Bool
    /// The columns of a dictionary fetch: attributes and aggregates. Empty means every attribute.
    public var properties: [FetchProperty]
    /// The attributes a dictionary fetch groups by.
    public var groupBy: [String]
    /// A predicate over the groups of a dictionary fetch; it may name aggregates by their alias.
    public var having: FetchPredicate?
    /// Relationships whose objects an object fetch loads with the results, by key path (`"run"`,
    /// `"run.source"`, `"sessions"`): one query per step, rather than one per object when each is first touched.
    public var prefetchedRelationships: [String]

    public init(_ entity: EntityDescription, predicate: FetchPredicate? = nil, sortedBy sortKeys: [SortKey] = [],
                limit: Int? = nil) {
        self.entity = entity
        self.ownPredicate = predicate
        self.scopeRestriction = nil
        self.sortKeys = sortKeys
        self.limit = limit
        self.offset = nil
        self.batchSize = 1_000
        self.includesPendingChanges = true
        self.properties = []
        self.groupBy = []
        self.having = nil
        self.prefetchedRelationships = []
        self.scope = nil
    }

    private mutating func restrictToScope() {
        scopeRestriction = scope.flatMap { $0.restriction(for: entity) }
    }

    /// The request with `scope` when it has none of its own: what a scoped context runs.
    package func scoped(by scope: FetchScope?) -> FetchRequest {
        guard self.scope == nil, let scope else { return self }
        var request = self
        request.scope = scope
        return request
    }

    public init<E: Entity>(_ entityType: E.Type, predicate: FetchPredicate? = nil, sortedBy sortKeys: [SortKey] = [],
                           limit: Int? = nil) {
        self.init(E.entity, predicate: predicate, sortedBy: sortKeys, limit: limit)
    }
}
