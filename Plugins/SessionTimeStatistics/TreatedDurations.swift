import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

/// The durations a session-time statistic works on: the qualifying sessions, with outliers capped, flagged
/// or dropped as the ``DurationLimit`` says, from the report digest's sorted durations of the filter.
///
/// ```swift
/// let durations = TreatedDurations(filter: filter, limit: limit, digest: digest)
/// durations.total / Double(durations.count)
/// ```
struct TreatedDurations {
    let filter: SessionFilter
    let limit: DurationLimit?
    /// Sessions no longer than the maximum: every qualifying session when there is no limit.
    let kept: DurationSummary
    /// Sessions longer than the maximum: none when there is no limit.
    let outliers: DurationSummary

    /// The sorted durations: the kept ones, then the outliers.
    private let sorted: [Double]
    /// Where the outliers begin in `sorted`.
    private let split: Int

    init(filter: SessionFilter, limit: DurationLimit?, digest: SessionDigest) {
        self.filter = filter
        self.limit = limit
        sorted = digest.durations(filter)
        if let limit {
            // The first duration longer than the maximum.
            var low = 0, high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] <= limit.maximum { low = middle + 1 } else { high = middle }
            }
            split = low
        } else {
            split = sorted.count
        }
        kept = DurationSummary(sorted[..<split])
        outliers = DurationSummary(sorted[split...])
    }

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
    var median: TimeInterval? {
        guard count > 0 else { return nil }
        let middle = ((count - 1) / 2 ... count / 2).map(duration(at:))
        return middle.reduce(0, +) / Double(middle.count)
    }

    /// The duration at `position` of the counted durations in order: outliers capped at the maximum, counted in
    /// full, or left out.
    private func duration(at position: Int) -> TimeInterval {
        guard position >= split, let limit else { return sorted[position] }
        switch limit.handling {
        case .cap: return limit.maximum
        case .flag, .drop: return sorted[position]
        }
    }
}
