import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

/// The durations a session-time statistic works on: the qualifying sessions, with outliers capped, flagged
/// or dropped as the ``DurationLimit`` says. Everything is read with SQL aggregates; the median streams the
/// distinct durations with their counts, never every session.
///
/// ```swift
/// let durations = try TreatedDurations(filter: filter, limit: limit, in: context)
/// durations.total / Double(durations.count)
/// ```
struct TreatedDurations {
    let filter: SessionFilter
    let limit: DurationLimit?
    /// Sessions no longer than the maximum: every qualifying session when there is no limit.
    let kept: DurationSummary
    /// Sessions longer than the maximum: none when there is no limit.
    let outliers: DurationSummary

    init(filter: SessionFilter, limit: DurationLimit?, in context: isolated ObjectContext) throws {
        self.filter = filter
        self.limit = limit
        if let limit {
            // Capping is the sum of the kept sessions plus maximum × the number of outliers, so two
            // aggregates give every mode without MIN(duration, max) in SQL.
            kept = try DurationSummary(matching: filter.predicate && limit.withinPredicate, in: context)
            outliers = try DurationSummary(matching: filter.predicate && limit.outlierPredicate, in: context)
        } else {
            kept = try DurationSummary(matching: filter.predicate, in: context)
            outliers = .empty
        }
    }

    /// The number of sessions counted.
    var count: Int {
        limit?.handling == .drop ? kept.count : kept.count + outliers.count
    }

    /// The sum of the durations counted, in seconds.
    var total: TimeInterval {
        switch limit {
        case nil: return kept.total
        case let limit?:
            switch limit.handling {
            case .cap: return kept.total + Double(outliers.count) * limit.maximum
            case .flag: return kept.total + outliers.total
            case .drop: return kept.total
            }
        }
    }

    /// The longest duration counted; `nil` when none is.
    var longest: TimeInterval? {
        switch limit {
        case nil: return kept.longest
        case let limit?:
            switch limit.handling {
            case .cap: return outliers.count > 0 ? limit.maximum : kept.longest
            case .flag: return outliers.longest ?? kept.longest
            case .drop: return kept.longest
            }
        }
    }

    /// What was done with outliers, for the result.
    var notes: [String] {
        limit.map { [$0.note(outlierCount: outliers.count)] } ?? []
    }

    /// The median of the durations counted, the mean of the middle two for an even count; `nil` when none is.
    func median(in context: isolated ObjectContext) throws -> TimeInterval? {
        guard count > 0 else { return nil }
        let middle = try durations(at: (count - 1) / 2 ... count / 2, in: context)
        // Empty only if a save removed sessions between the count and this read.
        guard !middle.isEmpty else { return nil }
        return middle.reduce(0, +) / Double(middle.count)
    }

    /// The durations at `positions` of the counted durations in ascending order.
    ///
    /// Every kept session is no longer than any outlier, so in order the kept sessions come first, then the
    /// outliers: as they are (flag, or no limit: one ordered read over all sessions) or all at the maximum (cap).
    ///
    /// It walks the distinct durations with their counts (`GROUP BY duration`) rather than reading one row at
    /// `OFFSET n/2`: SQLite sorts every row either way, but a large offset makes its sorter several times slower
    /// (1,000,000 rows: about 1.5 s against 9 s). Rows stream, so memory stays flat.
    private func durations(at positions: ClosedRange<Int>, in context: isolated ObjectContext) throws -> [TimeInterval] {
        let ordered: FetchPredicate
        switch limit?.handling {
        case nil, .flag?: ordered = filter.predicate
        case .cap?, .drop?: ordered = filter.predicate && (limit?.withinPredicate ?? .true)
        }
        var request = FetchRequest(Session.self, predicate: ordered, sortedBy: [.ascending(Session.duration)])
        request.properties = [.attribute(Session.duration.name), .count(as: "count")]
        request.groupBy = [Session.duration.name]
        var values: [TimeInterval] = []
        var seen = 0
        try context.forEachRow(request) { row in
            guard values.count < positions.count, let duration = Double(attributeValue: row[0]) else { return }
            // This duration fills the positions seen ..< seen + sessions of the ordered durations.
            let sessions = Int(attributeValue: row[1]) ?? 0
            seen += sessions
            while values.count < positions.count && positions.lowerBound + values.count < seen {
                values.append(duration)
            }
        }
        // Positions past the kept sessions are capped outliers.
        if let limit, limit.handling == .cap {
            values += Array(repeating: limit.maximum, count: max(0, positions.count - values.count))
        }
        return values
    }
}
