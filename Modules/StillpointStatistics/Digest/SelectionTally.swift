import Foundation
import PracticeLog

/// The running sums behind one ``SelectedSessions``: built in one pass over the digest's columns, then kept
/// current row by row as sessions are saved and deleted.
struct SelectionTally: Sendable {
    let filter: SessionFilter
    let boundary: DayBoundary
    private var count = 0
    private var total = 0.0
    private var days = DayTotals()
    private var hours = Array(repeating: SessionTally(), count: 24)
    /// By the digest's number of the kind and of the source: arrays, not tables, since the numbers are small and
    /// dense (a table cost two hashes a session for each).
    private var kinds: [SessionTally] = []
    private var sources: [SessionTally] = []
    /// The report zone's offsets, and each session zone's by its number: `nil` not asked yet, `.some(nil)` not a
    /// zone this machine knows. Updated in place, so that a session copies no offsets.
    private var reportOffsets: ZoneOffsets
    private var zoneOffsets: [ZoneOffsets??] = []
    private var kindAdmitted: [Bool] = []
    private var snapshot: SelectedSessions?

    init(filter: SessionFilter, boundary: DayBoundary, columns: DigestColumns) {
        self.filter = filter
        self.boundary = boundary
        self.reportOffsets = ZoneOffsets.shared(identifier: boundary.timeZone.identifier) ?? ZoneOffsets(boundary.timeZone)
        updateKinds(columns.kindNames)
        for index in 0..<columns.count {
            let start = columns.starts[index], duration = columns.durations[index], kind = columns.kinds[index]
            guard filter.admits(start: start, duration: duration), kindAdmitted[Int(kind)] else { continue }
            add(columns[index], sign: 1, zoneNames: columns.zoneNames)
        }
        days.trimCapacity()
        // What the zones' offsets learned over these sessions serves the next practitioner's report too.
        reportOffsets.remember()
        for case let offsets?? in zoneOffsets { offsets.remember() }
    }

    /// Counts `row` in (`sign` 1) or out (-1) when the filter admits it; whether it did.
    @discardableResult
    mutating func apply(_ row: DigestColumns.Row, sign: Int, columns: DigestColumns) -> Bool {
        if Int(row.kind) >= kindAdmitted.count { updateKinds(columns.kindNames) }
        guard filter.admits(start: row.start, duration: row.duration), kindAdmitted[Int(row.kind)] else { return false }
        add(row, sign: sign, zoneNames: columns.zoneNames)
        snapshot = nil
        return true
    }

    /// Whether `filter` admits `row`.
    static func admits(_ row: DigestColumns.Row, filter: SessionFilter, kindNames: ByteInterner) -> Bool {
        guard filter.admits(start: row.start, duration: row.duration) else { return false }
        guard let kinds = filter.kinds else { return true }
        return row.kind != 0 && kinds.contains { kindNames.existingNumber(of: $0) == row.kind }
    }

    private mutating func updateKinds(_ names: ByteInterner) {
        kindAdmitted = names.admitted(by: filter.kinds)
    }

    private mutating func add(_ row: DigestColumns.Row, sign: Int, zoneNames: ByteInterner) {
        let duration = Double(sign) * row.duration
        count += sign
        total += duration
        let zone = Int(row.zone)
        if zone != 0, zone >= zoneOffsets.count || zoneOffsets[zone] == nil { learnZone(zone, zoneNames) }
        let local: Double
        if zone != 0, let seconds = zoneOffsets[zone]??.localSeconds(of: row.start) {
            local = seconds
        } else {
            local = reportOffsets.localSeconds(of: row.start)
        }
        days.add(day: boundary.dayNumber(atLocalSeconds: local), sessions: sign, seconds: duration)
        let hour = DayBoundary.localHour(atLocalSeconds: local)
        hours[hour].count += sign
        hours[hour].time += duration
        Self.add(sign, duration, to: &kinds, at: Int(row.kind))
        Self.add(sign, duration, to: &sources, at: Int(row.source))
    }

    private static func add(_ sessions: Int, _ duration: Double, to tallies: inout [SessionTally], at number: Int) {
        if number >= tallies.count { tallies += Array(repeating: SessionTally(), count: number + 1 - tallies.count) }
        tallies[number].count += sessions
        tallies[number].time += duration
    }

    /// Looks up the offsets of the zone numbered `number`, the first time a session of it is counted.
    private mutating func learnZone(_ number: Int, _ names: ByteInterner) {
        if number >= zoneOffsets.count { zoneOffsets += Array(repeating: nil, count: number + 1 - zoneOffsets.count) }
        zoneOffsets[number] = .some(ZoneOffsets.shared(identifier: names.names[number]))
    }

    /// Whether the sums as statistics read them are held, made since the last change.
    var hasSnapshot: Bool { snapshot != nil }

    /// Drops the sums as statistics read them; ``selected(kindNames:sourceNames:)`` makes them again.
    mutating func releaseSnapshot() {
        snapshot = nil
    }

    /// The sums as statistics read them.
    mutating func selected(kindNames: ByteInterner, sourceNames: ByteInterner) -> SelectedSessions {
        if let snapshot { return snapshot }
        func named(_ tallies: [SessionTally], _ names: ByteInterner) -> [NamedTally] {
            tallies.indices.filter { tallies[$0].count > 0 }.map { ByteInterner.Number(truncatingIfNeeded: $0) }
                .sorted(by: names.precedes)
                .map { NamedTally(name: names.names[Int($0)], tally: tallies[Int($0)]) }
        }
        let selected = SelectedSessions(count: count, totalTime: total, days: days.tallies, hours: hours,
                                        kinds: named(kinds, kindNames), sources: named(sources, sourceNames))
        snapshot = selected
        return selected
    }
}
