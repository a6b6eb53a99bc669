import Foundation
import PracticeLog
import StillpointCore

/// The sessions of a store in compact form, read in one scan, that every statistic of a report reads instead of
/// the store: a report of twenty statistics scans its million sessions once, not twenty times.
///
/// It holds, per session, the start, the duration and numbers for the kind, source and zone (about 26 bytes a
/// session). What statistics ask of it (``sessions(_:boundary:)``, ``durations(_:)``) is summed up once per
/// filter and day rule, and kept: statistics that share a filter share the work. A long-lived report
/// (`report --watch`) keeps the digest and brings it up to date from the change log (``catchUp(in:)``) instead of
/// reading the store again.
///
/// ```swift
/// let digest = try await container.performBackgroundTask { context in
///     try context.withPinnedSnapshot { try SessionDigest(in: context) }
/// }
/// let sessions = digest.sessions(filter, boundary: boundary)
/// ```
public final class SessionDigest: Sendable {
    private struct State: Sendable {
        var columns = DigestColumns()
        var token: HistoryToken
        var selections: [SelectionKey: Selection] = [:]
        var durations: [SessionFilter: Durations] = [:]
        /// The latest start at or before an `as_of` (seconds since 1970), by `as_of`, for the rows as they are.
        var cutoffs: [Double: Double] = [:]
    }

    private struct SelectionKey: Hashable, Sendable {
        var filter: SessionFilter
        var boundary: DayBoundary
    }

    /// One filter's running sums, built by the first statistic that asks, while the others wait for it.
    private final class Selection: Sendable {
        /// The filter of the statistic that asked first (others may differ in `as_of` only).
        let filter: SessionFilter
        let tally = LockedState<SelectionTally?>(nil)

        init(filter: SessionFilter) {
            self.filter = filter
        }
    }

    /// One filter's durations, sorted, built by the first statistic that asks.
    private final class Durations: Sendable {
        let filter: SessionFilter
        let sorted = LockedState<[Double]?>(nil)

        init(filter: SessionFilter) {
            self.filter = filter
        }
    }

    private let state: LockedState<State>

    /// The attributes the digest reads, in the order of its columns.
    package static let attributes = ["start", "duration", "kind", "source", "timeZone"]

    /// Reads every session of the store `context` reads, in one table scan; call it inside
    /// ``ObjectContext/withPinnedSnapshot(_:)`` so that the digest and its ``historyToken`` agree.
    public init(in context: isolated ObjectContext) throws {
        var columns = DigestColumns()
        // Room for every row at once: arrays that double as they grow would briefly hold twice as much.
        columns.reserve(try context.count(for: FetchRequest(Session.self)))
        try Self.read(in: context, rowIDs: nil, into: &columns) { columns, row in columns.append(row) }
        let token = try context.historyToken()
        state = LockedState(State(columns: columns, token: token))
        practitioner = nil
    }

    /// Reads the sessions of one practitioner (by the practitioner's row id): a digest that every statistic of a
    /// per-practitioner report reads, and that ``catchUp(in:)`` keeps to that practitioner's sessions (one moved to
    /// another practitioner leaves it, one moved in joins it).
    ///
    /// ```swift
    /// let alice = try await Practitioners.rowID(of: "alice", in: container)
    /// let digest = try context.withPinnedSnapshot { try SessionDigest(in: context, practitioner: alice) }
    /// ```
    public init(in context: isolated ObjectContext, practitioner: Int64) throws {
        var columns = DigestColumns()
        try Self.read(in: context, practitioner: practitioner, rowIDs: nil, into: &columns) { columns, row in _ = columns.upsert(row) }
        // Their number is not known before the scan (counting them first is one more statement per cold report).
        columns.trimCapacity()
        let token = try context.historyToken()
        state = LockedState(State(columns: columns, token: token))
        self.practitioner = practitioner
    }

    /// A digest of rows read elsewhere (``SessionDigestBuilder``), current with `token`.
    init(columns: DigestColumns, token: HistoryToken) {
        state = LockedState(State(columns: columns, token: token))
        practitioner = nil
    }

    /// The row id of the practitioner whose sessions the digest holds; `nil` for a digest of every session.
    public let practitioner: Int64?

    /// The position in the change log the digest is current with.
    public var historyToken: HistoryToken {
        state.withLock { $0.token }
    }

    /// The number of sessions the digest holds, whatever their values.
    public var count: Int {
        state.withLock { state in state.columns.durations.reduce(0) { $0 + ($1.isNaN ? 0 : 1) } }
    }

    /// The sessions `filter` admits, summed up per day of `boundary`, hour, kind and source.
    ///
    /// ```swift
    /// let days = digest.sessions(filter, boundary: try parameters.dayBoundary()).activeDays
    /// ```
    public func sessions(_ filter: SessionFilter, boundary: DayBoundary) -> SelectedSessions {
        let (selection, columns) = state.withLock { state in
            let key = SelectionKey(filter: Self.shared(filter, &state), boundary: boundary)
            if let known = state.selections[key] { return (known, state.columns) }
            let selection = Selection(filter: filter)
            state.selections[key] = selection
            return (selection, state.columns)
        }
        return selection.tally.withLock { tally in
            var built = tally ?? SelectionTally(filter: selection.filter, boundary: boundary, columns: columns)
            defer { tally = built }
            return built.selected(kindNames: columns.kindNames, sourceNames: columns.sourceNames)
        }
    }

    /// The durations of the sessions `filter` admits, shortest first.
    ///
    /// ```swift
    /// let sorted = digest.durations(filter)
    /// let median = sorted.isEmpty ? nil : (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
    /// ```
    public func durations(_ filter: SessionFilter) -> [Double] {
        let (durations, columns) = state.withLock { state in
            let key = Self.shared(filter, &state)
            if let known = state.durations[key] { return (known, state.columns) }
            let durations = Durations(filter: filter)
            state.durations[key] = durations
            return (durations, state.columns)
        }
        return durations.sorted.withLock { sorted in
            if let sorted { return sorted }
            let filter = durations.filter
            var admitted: [Double] = []
            let kinds = columns.kindNames.admitted(by: filter.kinds)
            for index in 0..<columns.count where filter.admits(start: columns.starts[index], duration: columns.durations[index])
                && kinds[Int(columns.kinds[index])] {
                admitted.append(columns.durations[index])
            }
            admitted.sort()
            admitted = admitted.withExactCapacity()
            sorted = admitted
            return admitted
        }
    }

    /// Lets go of the summaries the statistics of a report read (``SelectedSessions``: a line per day with
    /// practice, the largest thing a practitioner's digest holds besides its rows). The running sums stay and are
    /// kept current; the next report makes the summaries again from them, which costs a pass over their days. A
    /// service that keeps thousands of digests between reports calls it after each report.
    ///
    /// A digest of at most ``largestReleasedDurations`` sessions also lets go of its sorted durations (8 bytes a
    /// session); the next report that asks sorts them again. A larger one keeps them current instead, since
    /// sorting a million values again would cost more than the refresh itself.
    ///
    /// ```swift
    /// let report = await runner.run(entries, environment: environment)
    /// digest.releaseSummaries()
    /// ```
    public func releaseSummaries() {
        let (selections, durations) = state.withLock { state in
            (Array(state.selections.values), state.columns.count <= Self.largestReleasedDurations ? Array(state.durations.values) : [])
        }
        for selection in selections {
            selection.tally.withLock { tally in tally?.releaseSnapshot() }
        }
        for known in durations {
            known.sorted.withLock { $0 = nil }
        }
    }

    /// The most sessions of a digest whose sorted durations ``releaseSummaries()`` lets go: sorting 10,000 values
    /// again takes well under a millisecond (a practitioner of ten years has about 2,100).
    static let largestReleasedDurations = 10_000

    /// How many summaries the digest holds now (for the tests of ``releaseSummaries()``).
    var heldSummaries: Int {
        let selections = state.withLock { Array($0.selections.values) }
        return selections.reduce(0) { held, selection in held + (selection.tally.withLock { $0?.hasSnapshot ?? false } ? 1 : 0) }
    }

    /// How many filters' sorted durations the digest holds now (for the tests of ``releaseSummaries()``).
    var heldDurations: Int {
        let durations = state.withLock { Array($0.durations.values) }
        return durations.reduce(0) { held, known in held + (known.sorted.withLock { $0 != nil } ? 1 : 0) }
    }

    /// Calls `body` with the digest's rows as they are now (for a computation of its own, such as a custom
    /// statistic's aggregate over sessions).
    package func withColumns<T>(_ body: (DigestColumns) throws -> T) rethrows -> T {
        let columns = state.withLock { $0.columns }
        return try body(columns)
    }

    /// The filter that keys what the digest keeps: two `as_of` instants with no start between them admit the
    /// same sessions, so reports made at different instants (a watched report's refreshes) share the work. The
    /// key's `as_of` is the latest start at or before it (or the distant future when no start is later).
    private static func shared(_ filter: SessionFilter, _ state: inout State) -> SessionFilter {
        let asOf = filter.asOf.timeIntervalSince1970
        var shared = filter
        guard state.columns.latestStart > asOf else {
            shared.asOf = .distantFuture
            return shared
        }
        if let cutoff = state.cutoffs[asOf] {
            shared.asOf = Date(timeIntervalSince1970: cutoff)
            return shared
        }
        var cutoff = -Double.infinity
        for start in state.columns.starts where start <= asOf && start > cutoff { cutoff = start }
        state.cutoffs[asOf] = cutoff
        shared.asOf = Date(timeIntervalSince1970: cutoff)
        return shared
    }

    // MARK: Reading

    /// Reads the digest's columns of the rows `rowIDs` (all when `nil`), calling `body` with each that holds a
    /// start and a duration that are numbers.
    private static func read(in context: isolated ObjectContext, rowIDs: [Int64]?, into columns: inout DigestColumns,
                             _ body: (inout DigestColumns, DigestColumns.Row) -> Void) throws {
        try scan(in: context, rowIDs: rowIDs, into: &columns, body)
    }

    /// Reads the digest's columns of the sessions of `practitioner` (among `rowIDs` when given) through the store's
    /// own practitioner scope, as every statement of a scoped context is: one statement over the `(practitioner,
    /// start)` index. (Their ids first, then their columns by id, was five round trips on PostgreSQL.)
    private static func read(in context: isolated ObjectContext, practitioner: Int64, rowIDs: [Int64]?,
                             into columns: inout DigestColumns, _ body: (inout DigestColumns, DigestColumns.Row) -> Void) throws {
        if rowIDs?.isEmpty == true { return }
        let previous = context.scope
        context.setScope(try .practitioner(practitioner))
        defer { context.setScope(previous) }
        try scan(in: context, rowIDs: rowIDs, into: &columns, body)
    }

    private static func scan(in context: isolated ObjectContext, rowIDs: [Int64]?, into columns: inout DigestColumns,
                             _ body: (inout DigestColumns, DigestColumns.Row) -> Void) throws {
        try context.scanRows(of: Session.entity, attributes: attributes, rowIDs: rowIDs) { scanned in
            guard let row = try columns.row(of: scanned, from: 0, rowID: scanned.rowID) else { return }
            body(&columns, row)
        }
    }

    // MARK: Catching up

    /// Above this many changed sessions, reading the store again is cheaper than applying them one by one.
    static let largestCatchUp = 10_000

    /// Brings the digest up to date with the changes saved since ``historyToken`` (by this process or another):
    /// the changed sessions are read again, and every sum kept is updated row by row. Call it inside
    /// ``ObjectContext/withPinnedSnapshot(_:)``, while no statistic reads the digest.
    ///
    /// Returns ``DigestCatchUp/rebuild(reason:)`` instead when the digest cannot catch up: the change log was
    /// purged past its token, or so many sessions changed (a batch delete, a large import) that a new digest is
    /// cheaper.
    ///
    /// ```swift
    /// switch try context.withPinnedSnapshot({ try digest.catchUp(in: context) }) {
    /// case .updated(let update): rerun(statistics.filter { update.touches($0.filter) })
    /// case .rebuild(let reason): logger.info("\(reason)"); digest = try SessionDigest(in: context)
    /// }
    /// ```
    public func catchUp(in context: isolated ObjectContext) throws -> DigestCatchUp {
        let token = historyToken
        let changes: ChangeHistory
        do {
            changes = try context.history(after: token)
        } catch StoreError.historyPurged(_, _, let purgedThrough) {
            return .rebuild(reason: "the change log was purged through \(purgedThrough.sequence), past the digest's "
                            + "position \(token.sequence): reading every session again")
        }
        var rowIDs = Set<Int64>()
        for changeSet in changes {
            for id in [changeSet.inserted, changeSet.updated, changeSet.deleted].joined()
            where id.entityName == Session.entity.name {
                if let rowID = id.rowID { rowIDs.insert(rowID) }
            }
        }
        guard rowIDs.count <= Self.largestCatchUp else {
            return .rebuild(reason: "\(rowIDs.count) sessions changed (a batch or a large import): reading every session again")
        }
        // A practitioner's digest reads again only the changed sessions that are theirs now; one that was theirs
        // and is not (moved, deleted) is removed below as a deleted one is.
        let practitioner = self.practitioner
        return .updated(try state.withLock { state in
            var read: [DigestColumns.Row] = []
            if let practitioner {
                try Self.read(in: context, practitioner: practitioner, rowIDs: rowIDs.sorted(), into: &state.columns) { _, row in read.append(row) }
            } else {
                try Self.read(in: context, rowIDs: rowIDs.sorted(), into: &state.columns) { _, row in read.append(row) }
            }
            var changed: [DigestColumns.Row] = []
            var present = Set<Int64>()
            state.columns.reserveGently(read.count)
            for row in read {
                present.insert(row.rowID)
                if let old = state.columns.upsert(row) { changed.append(old); Self.apply(old, sign: -1, &state) }
                changed.append(row)
                Self.apply(row, sign: 1, &state)
            }
            for rowID in rowIDs.subtracting(present) {
                if let old = state.columns.remove(rowID) { changed.append(old); Self.apply(old, sign: -1, &state) }
            }
            Self.rekey(&state)
            state.token = changes.token
            return DigestUpdate(changeSets: changes.count, sessions: rowIDs.count, rows: changed,
                                latestStart: state.columns.latestStart, kindNames: state.columns.kindNames,
                                mayBeBehind: changes.mayBeBehind)
        })
    }

    /// Files what the digest keeps under the keys of the rows as they are now: a new or deleted start can move
    /// the latest start at or before a filter's `as_of`.
    private static func rekey(_ state: inout State) {
        state.cutoffs = [:]
        var selections: [SelectionKey: Selection] = [:]
        for (key, selection) in state.selections {
            selections[SelectionKey(filter: shared(selection.filter, &state), boundary: key.boundary)] = selection
        }
        var durations: [SessionFilter: Durations] = [:]
        for known in state.durations.values {
            durations[shared(known.filter, &state)] = known
        }
        (state.selections, state.durations) = (selections, durations)
    }

    /// Counts `row` in or out of every sum the digest keeps.
    private static func apply(_ row: DigestColumns.Row, sign: Int, _ state: inout State) {
        let columns = state.columns
        for selection in state.selections.values {
            selection.tally.withLock { tally in _ = tally?.apply(row, sign: sign, columns: columns) }
        }
        for durations in state.durations.values {
            guard SelectionTally.admits(row, filter: durations.filter, kindNames: columns.kindNames) else { continue }
            durations.sorted.withLock { sorted in
                guard var values = sorted else { return }
                sorted = nil  // one copy of the array, not two
                var low = 0, high = values.count
                while low < high {
                    let middle = (low + high) / 2
                    if values[middle] < row.duration { low = middle + 1 } else { high = middle }
                }
                if sign > 0 {
                    values.insert(row.duration, at: low)
                } else if low < values.count, values[low] == row.duration {
                    values.remove(at: low)
                }
                sorted = values
            }
        }
    }
}
