import StillpointStatistics

/// Statistic values as programs read them, for JSON and CSV: numbers in their unit (seconds, days), whole
/// units as integers, days as `yyyy-MM-dd`.
///
/// ```swift
/// MachineText.number(5_400, .seconds)   // 5400
/// MachineText.number(86.6, .percent)    // 87
/// ```
enum MachineText {
    /// The number a quantity is written as: rounded to an integer when its unit is whole, and seconds to the
    /// millisecond, since an average of 2180.3427895981085 s says no more than 2180.343 s and diffs worse.
    ///
    /// ```swift
    /// MachineText.number(2_180.3427895981085, .seconds)   // 2180.343
    /// ```
    static func number(_ value: Double, _ unit: StatisticUnit) -> Double {
        guard value.isFinite else { return value }
        return unit.isWhole ? value.rounded() : (value * 1_000).rounded() / 1_000
    }

    /// The JSON of a value: `null`, a number, a string, an object in field order, or an array.
    static func json(_ value: StatisticValue) -> OrderedJSON {
        switch value {
        case .none: .null
        case .quantity(let amount, let unit): .number(number(amount, unit))
        case .text(let text): .string(text)
        case .day(let day): .string(day.description)
        case .record(let fields): .object(fields.map { OrderedJSON.Member($0.key, json($0.value)) })
        case .list(let items): .array(items.map(json))
        }
    }

    /// The text of a scalar in a CSV cell: the JSON number, the day, the text; empty for no value.
    static func cell(_ value: StatisticValue) -> String {
        switch value {
        case .none, .record, .list: ""
        case .quantity(let amount, let unit): OrderedJSON.number(number(amount, unit))
        case .text(let text): text
        case .day(let day): day.description
        }
    }

    /// The unit of a top-level quantity, else `nil`.
    static func unit(_ value: StatisticValue) -> StatisticUnit? {
        if case .quantity(_, let unit) = value { return unit }
        return nil
    }

    /// The machine name of an outcome: `ok`, `failed` or `cancelled`. Entries that never finished (the
    /// report was stopped while they waited or ran) count as cancelled, since they have no value either.
    static func status(_ outcome: ReportOutcome) -> String {
        switch outcome {
        case .finished: "ok"
        case .failed: "failed"
        case .waiting, .running, .cancelled: "cancelled"
        }
    }
}
