import Foundation
import PracticeLog
import StillpointStatistics

/// A finished report: every entry of the manifest in order, with its outcome.
public struct Report: Sendable, Hashable {
    /// The instant the report was made at.
    public var asOf: Date
    /// The zone of the report's days.
    public var timeZone: TimeZone
    public var entries: [ReportEntry]
    /// What a reader must know about the data before the numbers, shown at the top of every format: that the
    /// report is of demo data, for example. `nil` for none.
    public var notice: String?

    public init(asOf: Date, timeZone: TimeZone, entries: [ReportEntry], notice: String? = nil) {
        self.asOf = asOf
        self.timeZone = timeZone
        self.entries = entries
        self.notice = notice
    }

    /// Whether every statistic succeeded.
    public var succeeded: Bool {
        entries.allSatisfy { if case .finished = $0.outcome { return true } else { return false } }
    }

    /// The value of the first entry with `id` that finished.
    public func value(of id: String) -> StatisticValue? {
        for entry in entries where entry.id == id {
            if case .finished(let result) = entry.outcome { return result.value }
        }
        return nil
    }
}

/// One statistic of a report: the manifest entry and what became of it.
public struct ReportEntry: Sendable, Hashable {
    /// The statistic's id.
    public var id: String
    /// The entry's `as` name, or its id.
    public var name: String
    /// The statistic's human name, e.g. "Current streak".
    public var title: String
    /// How reports written for people show the value: the statistic's own
    /// ``StatisticDescription/presentation``.
    public var presentation: StatisticPresentation
    public var outcome: ReportOutcome

    public init(id: String, name: String, title: String, presentation: StatisticPresentation = .value, outcome: ReportOutcome) {
        self.id = id
        self.name = name
        self.title = title
        self.presentation = presentation
        self.outcome = outcome
    }
}

/// Where a statistic of a report stands.
public enum ReportOutcome: Sendable, Hashable {
    case waiting
    /// Running, with progress from 0 to 1 where known.
    case running(progress: Double?)
    case finished(StatisticResult)
    case failed(message: String)
    case cancelled
}
