import PracticeLog

/// The value of a statistic: a quantity with its unit, text, a day, a record of named values, or a list.
///
/// Reporters render each form; JSON shows records as objects in field order and lists as arrays.
///
/// ```swift
/// .quantity(1_200, .seconds)
/// .record([.init("monday", .record([.init("count", .quantity(3, .count)), .init("time", .quantity(5_400, .seconds))]))])
/// .none   // no value, e.g. the average of no sessions
/// ```
///
/// Every form is held in place (a ``LocalDay`` is its day number only), 24 bytes each, so that a report's long
/// lists (a year of daily activity) cost one allocation a record, not one per field, while a report service holds
/// thousands of them.
public enum StatisticValue: Sendable, Hashable {
    case none
    case quantity(Double, StatisticUnit)
    case text(String)
    case day(LocalDay)
    case record([StatisticField])
    case list([StatisticValue])

    /// The field named `key` of a record.
    public subscript(key: String) -> StatisticValue? {
        guard case .record(let fields) = self else { return nil }
        return fields.first { $0.key == key }?.value
    }
}

/// One named value of a record.
public struct StatisticField: Sendable, Hashable {
    public var key: String
    public var value: StatisticValue

    public init(_ key: String, _ value: StatisticValue) {
        self.key = key
        self.value = value
    }
}

/// The unit of a quantity. Seconds, days, weeks and counts are whole numbers in JSON except seconds.
public enum StatisticUnit: String, Sendable, Hashable, CaseIterable {
    case seconds
    case days
    case weeks
    case count
    case percent

    /// Whether values of this unit are integers.
    public var isWhole: Bool { self != .seconds }
}
