/// The state behind one ``LiveResults``: the rows in order, found by binary search, brought up to each change
/// set the context takes in by re-reading only the changed rows that can be in the results. Used only on the context's executor.
final class LiveResultsEngine {
    let request: FetchRequest
    let entity: EntityDescription
    let broadcast: LiveResultsBroadcast
    private let sortPositions: [(position: Int, ascending: Bool)]
    private let sectionPosition: Int?
    private(set) var rows: LiveRows
    /// The rows by row id, to find a changed row's old values (and so its place).
    private(set) var members: [Int64: LiveRow]
    private var sectionRuns: [(value: AttributeValue, count: Int)]
    private var generation = 0
    /// Whether the predicate reads related objects (key paths, `ANY`/`ALL`/`NONE`, `@count`...).
    private let readsRelatedObjects: Bool
    /// Changed rows whose read failed (the context was interrupted), read again with the next change set.
    private var unread: Set<Int64> = []
    /// Whether a window must be read again: its refill failed.
    private var needsRefill = false
    /// The number of change sets taken in: a read ahead planned at another count is out of date.
    private var stamp = 0
    /// What was read ahead for the next change set (``read(for:observer:)``), until it is taken in.
    private var prepared: (read: LiveResultsRead, rows: Result<LiveResultsRead.Rows, any Error>)?

    /// Reads the first result and makes the engine; throws for a request live results cannot follow.
    init(request: FetchRequest, sectionKey: String?, graph: ObjectGraph) throws {
        guard request.offset == nil || request.offset == 0 else { throw LiveResultsError.offset }
        let entity = request.entity
        self.request = request
        self.entity = entity
        sortPositions = try request.sortKeys.map { (try entity.position(of: $0.attribute), $0.ascending) }
        if let sectionKey {
            guard request.sortKeys.first?.attribute == sectionKey else {
                throw LiveResultsError.sectionKeyNotFirstSortKey(sectionKey: sectionKey)
            }
            sectionPosition = try entity.position(of: sectionKey)
        } else {
            sectionPosition = nil
        }
        readsRelatedObjects = request.predicate.map { Self.readsRelatedObjects($0.root) } ?? false
        rows = LiveRows()
        members = [:]
        sectionRuns = []
        rows = LiveRows(try Self.fetch(request, graph: graph))
        members = Dictionary(uniqueKeysWithValues: rows.map { ($0.rowID, $0) })
        sectionRuns = Self.runs(of: rows, sectionPosition: sectionPosition)
        let sections = Self.sections(of: sectionRuns, isSectioned: sectionPosition != nil)
        broadcast = LiveResultsBroadcast(LiveSnapshot(generation: 0, sequence: 0, rows: rows, sections: sections,
                                                      difference: LiveDifference(), rowsRead: rows.count))
    }

    /// The rows of the request (its window, if it has a limit), read from the store.
    private static func fetch(_ request: FetchRequest, graph: ObjectGraph) throws -> [LiveRow] {
        try graph.withReader { reader in try fetch(request, reader: reader) }
    }

    static func fetch(_ request: FetchRequest, reader: any StoreReader) throws -> [LiveRow] {
        var rows: [LiveRow] = []
        let entity = request.entity
        try reader.forEachObject(request, limit: request.limit, offset: nil, streaming: false) { rowID, version, values in
            rows.append(LiveRow(rowID: rowID, version: version, values: values, entity: entity))
        }
        return rows
    }

    // MARK: Taking in a change set

    /// What a change set asks of the results, found from the rows they hold.
    private enum Plan {
        /// Nothing the results hold or can hold changed.
        case nothing
        /// A change to related objects, which a predicate through relationships reads: read the whole result.
        case refetch
        /// Rows the results hold that were deleted, and changed rows to read as candidates.
        case edit(leaving: [Int64: LiveRow], changed: Set<Int64>)
    }

    private func plan(for changeSet: ChangeSet) -> Plan {
        let name = entity.name
        // A predicate through relationships can change its answer for rows the change set does not name.
        if readsRelatedObjects, changeSet.entityNames.contains(where: { $0 != name }) { return .refetch }
        var leaving: [Int64: LiveRow] = [:]
        for run in changeSet.deleted.runs(of: name) {
            // A large deletion of rows the results mostly do not hold: look the members up instead.
            if run.count > members.count {
                for (rowID, row) in members where run.contains(rowID) { leaving[rowID] = row }
            } else {
                for rowID in run { if let row = members[rowID] { leaving[rowID] = row } }
            }
        }
        var changed = unread
        for run in changeSet.inserted.runs(of: name) + changeSet.updated.runs(of: name) {
            for rowID in run where leaving[rowID] == nil { changed.insert(rowID) }
        }
        guard !leaving.isEmpty || !changed.isEmpty || needsRefill else { return .nothing }
        return .edit(leaving: leaving, changed: changed)
    }

    // MARK: Reading ahead

    /// The read `changeSet` will need, to run off the context's executor before the context takes it in; `nil`
    /// when it needs none. A window that rows may leave is read too, in the same transaction, for its refill.
    func read(for changeSet: ChangeSet, observer: UInt64) -> LiveResultsRead? {
        switch plan(for: changeSet) {
        case .nothing:
            return nil
        case .refetch:
            return LiveResultsRead(observer: observer, stamp: stamp, changeSet: changeSet, request: request,
                                   candidates: nil, readsWindow: true)
        case .edit(let leaving, let changed):
            let mayRefill = request.limit != nil && (needsRefill || !leaving.isEmpty || changed.contains { members[$0] != nil })
            guard !changed.isEmpty || mayRefill else { return nil }
            return LiveResultsRead(observer: observer, stamp: stamp, changeSet: changeSet, request: request,
                                   candidates: changed, readsWindow: mayRefill)
        }
    }

    /// Keeps what a read ahead found for the next ``take(_:graph:)``, which uses it if nothing came in between.
    func prepare(_ read: LiveResultsRead, rows: Result<LiveResultsRead.Rows, any Error>) {
        prepared = (read, rows)
    }

    /// What was read ahead for `changeSet` with the results as they are now, or `nil` (then the take reads).
    private func takePrepared(for changeSet: ChangeSet) -> (read: LiveResultsRead, rows: Result<LiveResultsRead.Rows, any Error>)? {
        defer { prepared = nil }
        guard let prepared, prepared.read.stamp == stamp, prepared.read.changeSet == changeSet else { return nil }
        return prepared
    }

    // MARK: Taking in a change set

    /// Brings the rows up to `changeSet` and publishes a snapshot, unless the results did not change.
    func take(_ changeSet: ChangeSet, graph: ObjectGraph) {
        let prepared = takePrepared(for: changeSet)
        stamp += 1
        var leaving: [Int64: LiveRow]
        var changed: Set<Int64>
        switch plan(for: changeSet) {
        case .nothing:
            return
        case .refetch:
            refetch(changeSet, graph: graph, readAhead: prepared.map { prepared in prepared.rows.map { $0.window ?? [] } })
            return
        case .edit(let planned, let plannedChanged):
            leaving = planned
            changed = plannedChanged
        }
        // Rows read ahead serve only the same plan; the window read with them serves its refill.
        let readAhead = prepared.flatMap { $0.read.candidates == changed ? $0.rows : nil }
        var window = try? readAhead?.get().window

        // The changed rows that can be in the results now; the others leave them, if they were there.
        var fresh: [Int64: LiveRow] = [:]
        var rowsRead = 0
        if !changed.isEmpty {
            do {
                fresh = try readAhead.map { try $0.get().candidates } ?? candidates(among: changed, graph: graph)
                rowsRead = fresh.count
                unread = []
            } catch {
                // The context was interrupted: these rows are read with the next change set.
                unread = changed
                changed = []
                window = nil
            }
        }
        // Only the changed rows that are members or candidates can make a difference: a pass over the smaller
        // side, not over every changed row.
        var touched = Set(fresh.keys)
        if members.count < changed.count {
            for rowID in members.keys where changed.contains(rowID) { touched.insert(rowID) }
        } else {
            for rowID in changed where members[rowID] != nil { touched.insert(rowID) }
        }
        var entering: [LiveRow] = []
        for rowID in touched {
            let old = members[rowID]
            let new = fresh[rowID]
            if old == new { continue }
            if let old { leaving[rowID] = old }
            if let new { entering.append(new) }
        }
        guard !leaving.isEmpty || !entering.isEmpty || needsRefill else { return }
        if let limit = request.limit, entering.count > limit {
            // A row with `limit` entering rows before it cannot end in the window: only the first `limit` enter
            // (more than `limit` come only from a change set read in several statements).
            entering = first(limit, of: entering)
        }

        // The rows before are the previous snapshot's (shared, not copied); of the members before, only the
        // candidates' are kept, since copying them all would cost as much as the result is large.
        let oldRows = rows
        let oldSections = sections()
        var change = Change(old: leaving, entering: Set(entering.map(\.rowID)))
        edit(removing: Array(leaving.values), inserting: entering)
        if let limit = request.limit {
            rowsRead += settleWindow(limit: limit, oldRows: oldRows, change: &change, readAhead: window, graph: graph)
        }
        let difference = difference(from: oldRows, oldSections: oldSections, change: change)
        guard !difference.isEmpty else { return }
        generation += 1
        broadcast.publish(LiveSnapshot(generation: generation, sequence: changeSet.sequence, rows: rows,
                                       sections: sections(), difference: difference, rowsRead: rowsRead))
    }

    /// Candidates are read this many ids to a statement at most (a run of ids counts two).
    static let candidateParametersPerStatement = 1_000

    /// The rows among `rowIDs` that can be in the results after a change, read from the store: those the
    /// request matches, in its order, and for a request with a limit only the first `limit` of them, since a row
    /// with `limit` changed rows before it cannot end in the window. A save of a thousand new rows then reads
    /// the twenty that can enter a window of twenty, and the store (not the context's executor, the main actor
    /// for the view context) passes over the rest.
    private func candidates(among rowIDs: Set<Int64>, graph: ObjectGraph) throws -> [Int64: LiveRow] {
        try graph.withReader { reader in try Self.candidates(of: request, among: rowIDs, reader: reader) }
    }

    static func candidates(of request: FetchRequest, among rowIDs: Set<Int64>, reader: any StoreReader) throws -> [Int64: LiveRow] {
        var rows: [Int64: LiveRow] = [:]
        var statements: [[ClosedRange<Int64>]] = [[]]
        var parameters = 0
        for run in ObjectIDSet.runs(of: rowIDs.sorted()) {
            let cost = run.lowerBound == run.upperBound ? 1 : 2
            if parameters + cost > Self.candidateParametersPerStatement {
                statements.append([])
                parameters = 0
            }
            statements[statements.count - 1].append(run)
            parameters += cost
        }
        let entity = request.entity
        for runs in statements {
            var candidates = request
            let among = FetchPredicate.rowIDs(inRuns: runs)
            candidates.predicate = request.predicate.map { $0 && among } ?? among
            try reader.forEachObject(candidates, limit: request.limit, offset: nil, streaming: false) { rowID, version, values in
                rows[rowID] = LiveRow(rowID: rowID, version: version, values: values, entity: entity)
            }
        }
        return rows
    }

    /// Reads the whole result again (unless it was read ahead) and publishes what changed: for a change to
    /// related objects, which a predicate through relationships reads.
    private func refetch(_ changeSet: ChangeSet, graph: ObjectGraph, readAhead: Result<[LiveRow], any Error>?) {
        let oldRows = rows
        let oldSections = sections()
        let window: [LiveRow]
        do {
            window = try readAhead?.get() ?? Self.fetch(request, graph: graph)
        } catch {
            needsRefill = request.limit != nil
            return
        }
        var change = Change(old: members, entering: Set(window.map(\.rowID)))
        change.candidates.formUnion(change.old.keys)
        rows = LiveRows(window)
        members = Dictionary(uniqueKeysWithValues: window.map { ($0.rowID, $0) })
        sectionRuns = Self.runs(of: window, sectionPosition: sectionPosition)
        needsRefill = false
        unread = []
        let difference = difference(from: oldRows, oldSections: oldSections, change: change)
        guard !difference.isEmpty else { return }
        generation += 1
        broadcast.publish(LiveSnapshot(generation: generation, sequence: changeSet.sequence, rows: rows,
                                       sections: sections(), difference: difference, rowsRead: window.count))
    }

    /// Removes and inserts rows in place: one by one by binary search for a few, in one pass for many.
    private func edit(removing leaving: [LiveRow], inserting entering: [LiveRow]) {
        for row in leaving {
            members.removeValue(forKey: row.rowID)
            removeFromSection(row)
        }
        for row in entering {
            members[row.rowID] = row
            addToSection(row)
        }
        if leaving.count + entering.count <= 64 {
            for row in leaving {
                let index = lowerBound(of: row, in: rows)
                if index < rows.count, rows[index].rowID == row.rowID { rows.remove(at: index) }
            }
            for row in entering { rows.insert(row, at: lowerBound(of: row, in: rows)) }
        } else {
            let removed = Set(leaving.map(\.rowID))
            rows = LiveRows(merge(rows.filter { !removed.contains($0.rowID) }, entering.sorted(by: precedes)))
        }
    }

    /// Keeps a window of `limit` rows exact: rows past it leave, and when rows left a full window the rows that
    /// follow (which only the store knows) come in by reading the window again, unless it was read ahead with the
    /// change set's rows. Returns the rows read.
    private func settleWindow(limit: Int, oldRows: LiveRows, change: inout Change, readAhead: [LiveRow]?,
                              graph: ObjectGraph) -> Int {
        // Rows outside a full window all come after its last row; while the window is not full, it holds every
        // matching row.
        var isSettled = !needsRefill
        if isSettled, oldRows.count >= limit, let oldLast = oldRows.last {
            let known = upperBound(of: oldLast, in: rows)
            isSettled = known >= limit
        }
        if isSettled {
            if rows.count > limit { drop(from: limit, change: &change) }
            return 0
        }
        do {
            let window = try readAhead ?? Self.fetch(request, graph: graph)
            change.old = Dictionary(uniqueKeysWithValues: oldRows.map { ($0.rowID, $0) })
            change.candidates = Set(change.old.keys).union(window.map(\.rowID))
            rows = LiveRows(window)
            members = Dictionary(uniqueKeysWithValues: rows.map { ($0.rowID, $0) })
            sectionRuns = Self.runs(of: rows, sectionPosition: sectionPosition)
            needsRefill = false
            return window.count
        } catch {
            // Read again with the next change set; until then the window keeps the rows it knows.
            needsRefill = true
            if rows.count > limit { drop(from: limit, change: &change) }
            return 0
        }
    }

    private func drop(from index: Int, change: inout Change) {
        for row in rows[index...] {
            members.removeValue(forKey: row.rowID)
            removeFromSection(row)
            // A row that was there before and did not change is its own old self.
            if change.old[row.rowID] == nil && !change.entering.contains(row.rowID) { change.old[row.rowID] = row }
            change.candidates.insert(row.rowID)
        }
        rows.truncate(to: index)
    }

    private static func readsRelatedObjects(_ node: PredicateNode) -> Bool {
        switch node {
        case .constant: return false
        case .quantified: return true
        case .not(let operand): return readsRelatedObjects(operand)
        case .and(let operands), .or(let operands): return operands.contains(where: readsRelatedObjects)
        case .comparison(let comparison):
            return [comparison.lhs, comparison.rhs].contains { operand in
                switch operand {
                case .subqueryCount: return true
                case .key, .value, .list, .arithmetic, .function, .variable: return operand.keys.contains { $0.contains(".") }
                }
            }
        }
    }

    // MARK: Order

    /// Orders rows as the store's `ORDER BY` does: by the sort keys, then by row id.
    func precedes(_ lhs: LiveRow, _ rhs: LiveRow) -> Bool {
        for (position, ascending) in sortPositions {
            switch lhs.values[position].compare(to: rhs.values[position]) {
            case .orderedAscending?: return ascending
            case .orderedDescending?: return !ascending
            default: continue
            }
        }
        return lhs.rowID < rhs.rowID
    }

    /// The first index whose row does not precede `row`: its place, or where it goes.
    func lowerBound<Rows: RandomAccessCollection<LiveRow>>(of row: LiveRow, in rows: Rows) -> Int where Rows.Index == Int {
        var low = rows.startIndex, high = rows.endIndex
        while low < high {
            let middle = (low + high) / 2
            if precedes(rows[middle], row) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The first `count` of `rows` in the results' order, sorted: one comparison for most rows.
    private func first(_ count: Int, of rows: [LiveRow]) -> [LiveRow] {
        var kept: [LiveRow] = []
        kept.reserveCapacity(count + 1)
        for row in rows {
            if kept.count == count, let last = kept.last, !precedes(row, last) { continue }
            kept.insert(row, at: lowerBound(of: row, in: kept))
            if kept.count > count { kept.removeLast() }
        }
        return kept
    }

    /// The number of rows at or before `row`'s place.
    private func upperBound(of row: LiveRow, in rows: LiveRows) -> Int {
        var low = 0, high = rows.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(row, rows[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private func merge(_ lhs: [LiveRow], _ rhs: [LiveRow]) -> [LiveRow] {
        guard !rhs.isEmpty else { return lhs }
        var merged: [LiveRow] = []
        merged.reserveCapacity(lhs.count + rhs.count)
        var left = lhs.startIndex, right = rhs.startIndex
        while left < lhs.endIndex && right < rhs.endIndex {
            if precedes(rhs[right], lhs[left]) {
                merged.append(rhs[right])
                right += 1
            } else {
                merged.append(lhs[left])
                left += 1
            }
        }
        merged += lhs[left...]
        merged += rhs[right...]
        return merged
    }

    // MARK: Sections

    func sectionValue(of row: LiveRow) -> AttributeValue {
        sectionPosition.map { row.values[$0] } ?? .null
    }

    private static func runs(of rows: some Collection<LiveRow>, sectionPosition: Int?) -> [(value: AttributeValue, count: Int)] {
        var runs: [(value: AttributeValue, count: Int)] = []
        for row in rows {
            let value = sectionPosition.map { row.values[$0] } ?? .null
            if let last = runs.last, last.value == value {
                runs[runs.count - 1].count += 1
            } else {
                runs.append((value, 1))
            }
        }
        return runs
    }

    /// The sections now; results without a section key always have their one section.
    func sections() -> [LiveSection] {
        Self.sections(of: sectionRuns, isSectioned: sectionPosition != nil)
    }

    private static func sections(of sectionRuns: [(value: AttributeValue, count: Int)], isSectioned: Bool) -> [LiveSection] {
        var sections: [LiveSection] = []
        var start = 0
        for run in sectionRuns {
            sections.append(LiveSection(value: run.value, start: start, count: run.count))
            start += run.count
        }
        if !isSectioned && sections.isEmpty { sections.append(LiveSection(value: .null, start: 0, count: 0)) }
        return sections
    }

    /// The rows one change set can have brought, taken, moved or changed, and the old values of those that were
    /// there before.
    struct Change {
        var old: [Int64: LiveRow]
        let entering: Set<Int64>
        var candidates: Set<Int64>

        init(old: [Int64: LiveRow], entering: Set<Int64>) {
            self.old = old
            self.entering = entering
            candidates = entering.union(old.keys)
        }
    }

    /// The position of the section key among the attributes, or `nil` for unsectioned results.
    var sectionKeyPosition: Int? { sectionPosition }

    private func removeFromSection(_ row: LiveRow) {
        let value = sectionValue(of: row)
        guard let index = sectionRuns.firstIndex(where: { $0.value == value }) else { return }
        sectionRuns[index].count -= 1
        if sectionRuns[index].count == 0 { sectionRuns.remove(at: index) }
    }

    private func addToSection(_ row: LiveRow) {
        let value = sectionValue(of: row)
        if let index = sectionRuns.firstIndex(where: { $0.value == value }) {
            sectionRuns[index].count += 1
            return
        }
        // Sections follow the first sort key (the section key), in its direction.
        let ascending = sortPositions.first?.ascending ?? true
        let index = sectionRuns.firstIndex { run in
            let order = value.compare(to: run.value)
            return ascending ? order == .orderedAscending : order == .orderedDescending
        } ?? sectionRuns.count
        sectionRuns.insert((value, 1), at: index)
    }
}
