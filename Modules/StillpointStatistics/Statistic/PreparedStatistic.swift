import PracticeLog
import StillpointCore

/// A statistic with its parameters checked: the computation to run, and what it reads.
///
/// Most statistics read the report's ``SessionDigest``, which a report builds once in one scan of the store
/// and hands to every statistic: say which sessions with ``init(reading:compute:)``. A statistic that needs what
/// the digest does not hold (another entity, an attribute such as `note`) fetches it itself with
/// ``init(entities:compute:)``, in a background context of its own.
///
/// ```swift
/// let filter = try SessionFilter(parameters)
/// let boundary = try parameters.dayBoundary()
/// return PreparedStatistic(reading: filter) { digest in
///     .init(.quantity(Double(digest.sessions(filter, boundary: boundary).days.count), .days))
/// }
/// ```
public struct PreparedStatistic: Sendable {
    /// The entities the computation reads, so that a watching report knows which changes affect it.
    public let entities: Set<String>
    /// The sessions a digest statistic reads, so that a watching report runs it again only when one of them
    /// changed; `nil` for a statistic that reads the store itself.
    public let sessionFilters: [SessionFilter]?
    private let computation: Computation

    private enum Computation: Sendable {
        case store(@Sendable (isolated ObjectContext) throws -> StatisticResult)
        case digest(@Sendable (SessionDigest) throws -> StatisticResult)
    }

    /// A statistic that reads the store itself, through fetch requests in its own background context.
    public init(entities: Set<String> = ["Session"], compute: @escaping @Sendable (isolated ObjectContext) throws -> StatisticResult) {
        self.entities = entities
        self.sessionFilters = nil
        self.computation = .store(compute)
    }

    /// A statistic computed from the report's digest, from the sessions `filters` admit.
    public init(reading filters: SessionFilter..., compute: @escaping @Sendable (SessionDigest) throws -> StatisticResult) {
        self.entities = [Session.entity.name]
        self.sessionFilters = filters
        self.computation = .digest(compute)
    }

    /// Whether the statistic reads the report's digest.
    public var readsDigest: Bool { sessionFilters != nil }

    /// Computes the statistic from `digest`, when it reads one, else from the store `context` reads.
    public func compute(digest: SessionDigest?, context: isolated ObjectContext) throws -> StatisticResult {
        switch computation {
        case .store(let compute): return try compute(context)
        case .digest(let compute):
            return try compute(try digest ?? context.withPinnedSnapshot { try SessionDigest(in: context) })
        }
    }

    /// Computes a digest statistic from `digest` alone, without a store; `nil` for a statistic that reads the store.
    /// A report service makes a held report again this way, from memory, when another format is asked for.
    ///
    /// ```swift
    /// let again = try prepared.compute(digest: keptDigest)   // nil: it reads the store, keep its last result
    /// ```
    public func compute(digest: SessionDigest) throws -> StatisticResult? {
        guard case .digest(let compute) = computation else { return nil }
        return try compute(digest)
    }

    /// Computes the statistic alone, building a digest of its own when it reads one.
    public func compute(_ context: isolated ObjectContext) throws -> StatisticResult {
        try compute(digest: nil, context: context)
    }
}
