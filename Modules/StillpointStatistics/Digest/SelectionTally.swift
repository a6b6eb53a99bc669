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
    private var kinds: [UInt32: SessionTally] = [:]
    private var sources: [UInt32: SessionTally] = [:]
    /// The report zone's offsets, and each session zone's by its number (`nil`: not a zone this machine knows).
    private var reportOffsets: ZoneOffsets
    private var zoneOffsets: [UInt32: ZoneOffsets?] = [:]
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
        // What the zones' offsets learned over these sessions serves the next practitioner's report too.
        reportOffsets.remember()
        for case let offsets? in zoneOffsets.values { offsets.remember() }
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
        let local: Double
        if row.zone != 0, let known = offsets(ofZone: row.zone, zoneNames) {
            var offsets = known
            local = offsets.localSeconds(of: row.start)
            zoneOffsets[row.zone] = offsets
        } else {
            local = reportOffsets.localSeconds(of: row.start)
        }
        days.add(day: boundary.dayNumber(atLocalSeconds: local), sessions: sign, seconds: duration)
        let hour = DayBoundary.localHour(atLocalSeconds: local)
        hours[hour].count += sign
        hours[hour].time += duration
        kinds[row.kind, default: SessionTally()].count += sign
        kinds[row.kind, default: SessionTally()].time += duration
        sources[row.source, default: SessionTally()].count += sign
        sources[row.source, default: SessionTally()].time += duration
    }

    private mutating func offsets(ofZone number: UInt32, _ names: ByteInterner) -> ZoneOffsets? {
        if let known = zoneOffsets[number] { return known }
        let offsets = ZoneOffsets.shared(identifier: names.names[Int(number)])
        zoneOffsets[number] = offsets
        return offsets
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
        func named(_ tallies: [UInt32: SessionTally], _ names: ByteInterner) -> [NamedTally] {
            tallies.filter { $0.value.count > 0 }.keys.sorted(by: names.precedes)
                .compactMap { number in tallies[number].map { NamedTally(name: names.names[Int(number)], tally: $0) } }
        }
        let selected = SelectedSessions(count: count, totalTime: total, days: days.tallies, hours: hours,
                                        kinds: named(kinds, kindNames), sources: named(sources, sourceNames))
        snapshot = selected
        return selected
    }
}
