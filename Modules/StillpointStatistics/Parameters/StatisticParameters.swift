import Foundation
import PracticeLog
import StillpointCore

/// The parameters of one statistic entry of a manifest, read by type, with the report's shared settings.
///
/// Each accessor returns `nil` when the parameter is absent and throws a ``ParameterError`` that points at the
/// manifest when it is present but not of the type asked for.
///
/// ```swift
/// let minimum = try parameters.duration("minimum_duration") ?? 0
/// let rest = try parameters.weekdays("excluded_weekdays") ?? []
/// ```
public struct StatisticParameters: Sendable {
    /// The id (or `as` name) of the entry, for error messages.
    public var statistic: String
    public var values: [String: ParameterValue]
    public var environment: ReportEnvironment
    /// Records the names of the parameters read, when set: the conformance test checks that a statistic
    /// reads only parameters it describes.
    package var readLog: ParameterReadLog?

    public init(statistic: String, values: [String: ParameterValue] = [:], environment: ReportEnvironment = ReportEnvironment()) {
        self.statistic = statistic
        self.values = values
        self.environment = environment
    }

    // MARK: Typed reading

    public func string(_ name: String) throws -> String? {
        guard let value = value(name) else { return nil }
        guard let text = value.text else { throw error(name, value, "expected a single value, not a list") }
        return text
    }

    public func integer(_ name: String) throws -> Int? {
        try scalar(name, expected: "a whole number") { Int($0) }
    }

    /// A finite number: `nan`, `inf` and numbers beyond a double's range are refused.
    public func number(_ name: String) throws -> Double? {
        try scalar(name, expected: "a finite number") { Double($0).flatMap { $0.isFinite ? $0 : nil } }
    }

    public func bool(_ name: String) throws -> Bool? {
        try scalar(name, expected: "true or false") { text in
            switch text.lowercased() {
            case "true", "yes", "on": return true
            case "false", "no", "off": return false
            default: return nil
            }
        }
    }

    /// A duration: seconds as a number, or text such as `90s`, `10m`, `1h30m`, `-2h`, of at most
    /// ``longestDuration`` either way; `nan`, `inf` and `1e300` are refused.
    public func duration(_ name: String) throws -> TimeInterval? {
        if let value = values[name], let text = value.text,
           Self.parseAnyDuration(text.trimmingCharacters(in: .whitespaces)) != nil,
           Self.parseDuration(text.trimmingCharacters(in: .whitespaces)) == nil {
            throw error(name, value, "expected a finite duration of at most 366d either way, such as 10m or 4h, got \(QuotedValue(text))")
        }
        return try scalar(name, expected: "a duration such as 600, 10m or 1h30m") { Self.parseDuration($0) }
    }

    /// One of the raw values of `type`.
    public func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, as type: Choice.Type) throws -> Choice?
    where Choice.RawValue == String {
        let names = Choice.allCases.map(\.rawValue)
        return try scalar(name, expected: "one of: \(names.joined(separator: ", "))") { Choice(rawValue: $0.lowercased()) }
    }

    public func strings(_ name: String) throws -> [String]? {
        guard let value = value(name) else { return nil }
        switch value.content {
        case .scalar(let text): return [text]
        case .list(let items):
            return try items.map { item in
                guard let text = item.text else { throw error(name, item, "expected a list of single values") }
                return text
            }
        case .map: throw error(name, value, "expected a list, not a map")
        }
    }

    /// Lowercase English weekday names: `[saturday, sunday]`.
    public func weekdays(_ name: String) throws -> Set<Weekday>? {
        guard let names = try strings(name) else { return nil }
        return Set(try names.map { text in
            guard let weekday = Weekday(rawValue: text.lowercased()) else {
                throw error(name, values[name]!, "\(QuotedValue(text)) is not a weekday; use monday ... sunday"  // swiftlint:disable:this force_unwrapping: strings(name) found it
                            + (NameSuggestionHint.hint(text, Weekday.allCases.map(\.rawValue))))
            }
            return weekday
        })
    }

    public func weekday(_ name: String) throws -> Weekday? {
        try choice(name, as: Weekday.self)
    }

    /// An IANA time zone identifier such as `Europe/Berlin`, or `local` for this machine's zone.
    public func timeZone(_ name: String) throws -> TimeZone? {
        try scalar(name, expected: "an IANA time zone such as Europe/Berlin or UTC") { text in
            text.lowercased() == "local" ? TimeZone.current : TimeZone(identifier: text)
        }
    }

    /// An ISO 8601 instant such as `2024-03-15T12:00:00Z`, or a date `2024-03-15` (its start, in UTC).
    public func instant(_ name: String) throws -> Date? {
        try scalar(name, expected: "an ISO 8601 instant that exists, such as 2024-03-15T12:00:00Z or 2024-03-15") { Self.parseInstant($0) }
    }

    // MARK: Shared settings

    /// The day rules of this statistic: its own `time_zone` and `day_starts_at`, else the report's.
    ///
    /// - Throws: ``ParameterError`` for a `day_starts_at` outside a day (see ``dayStartProblem(_:written:)``).
    public func dayBoundary() throws -> DayBoundary {
        let zone = try timeZone("time_zone") ?? environment.timeZone
        guard let value = value("day_starts_at") else {
            return DayBoundary(timeZone: zone, dayStartsAt: environment.dayStartsAt)
        }
        let text = value.text ?? ""
        guard let dayStartsAt = Self.parseAnyDuration(text.trimmingCharacters(in: .whitespaces)) else {
            throw error("day_starts_at", value, "expected a duration such as 0, 4h or -2h, got \(QuotedValue(text))")
        }
        if let problem = Self.dayStartProblem(dayStartsAt, written: text) {
            throw error("day_starts_at", value, problem)
        }
        return DayBoundary(timeZone: zone, dayStartsAt: dayStartsAt)
    }

    /// Why `seconds`, written `text`, cannot be a `day_starts_at`, or `nil` when it can: a day's boundary lies
    /// within a day, `-24h < day_starts_at < 24h` (negative to start the evening before, e.g. -2h for 22:00).
    ///
    /// ```swift
    /// StatisticParameters.dayStartProblem(4 * 3600, written: "4h")    // nil
    /// StatisticParameters.dayStartProblem(48 * 3600, written: "48h")  // "day_starts_at must lie within a day, ..."
    /// ```
    public static func dayStartProblem(_ seconds: TimeInterval, written text: String) -> String? {
        guard !(seconds.isFinite && abs(seconds) < 86_400) else { return nil }
        return "day_starts_at must lie within a day, more than -24h and less than 24h, not \(QuotedValue(text)); "
            + "write e.g. 4h for days starting at 04:00, or -2h for days starting at 22:00 the evening before"
    }

    /// The instant of the report: this statistic's `as_of`, else the report's.
    public func asOf() throws -> Date {
        try instant("as_of") ?? environment.asOf
    }

    // MARK: Helpers

    /// The value of a parameter, noting that it was read.
    private func value(_ name: String) -> ParameterValue? {
        readLog?.record(name)
        return values[name]
    }

    private func scalar<T>(_ name: String, expected: String, _ parse: (String) -> T?) throws -> T? {
        guard let value = value(name) else { return nil }
        guard let text = value.text else { throw error(name, value, "expected \(expected), not a list") }
        guard let parsed = parse(text.trimmingCharacters(in: .whitespaces)) else {
            throw error(name, value, "expected \(expected), got \(QuotedValue(text))")
        }
        return parsed
    }

    private func error(_ name: String, _ value: ParameterValue, _ message: String) -> ParameterError {
        ParameterError(statistic: statistic, parameter: name, location: value.location, message: message)
    }

    /// The longest duration a parameter can name, 366 days either way: longer ones make no sense for a
    /// session or a day, and refusing them keeps `nan`, `inf` and `1e300` out of every computation.
    public static let longestDuration: TimeInterval = 366 * 86_400

    /// A duration in seconds, or `nil` when `text` is not one or is beyond ``longestDuration``.
    static func parseDuration(_ text: String) -> TimeInterval? {
        guard let seconds = parseAnyDuration(text), seconds.isFinite, abs(seconds) <= longestDuration else { return nil }
        return seconds
    }

    /// Any duration `text` writes, even `nan`, `inf` or `1e300`.
    package static func parseAnyDuration(_ text: String) -> TimeInterval? {
        if let seconds = Double(text) { return seconds }
        var rest = Substring(text.lowercased())
        var sign = 1.0
        if rest.hasPrefix("-") {
            sign = -1
            rest = rest.dropFirst()
        }
        var total = 0.0
        var sawComponent = false
        let units: [Character: Double] = ["d": 86_400, "h": 3_600, "m": 60, "s": 1]
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isNumber || $0 == "." }
            guard !digits.isEmpty, let number = Double(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first, let factor = units[unit] else { return nil }
            rest = rest.dropFirst()
            total += number * factor
            sawComponent = true
        }
        return sawComponent ? sign * total : nil
    }

    /// Strict: a date or time that does not exist (February 30, hour 25) is `nil`, not rolled over.
    package static func parseInstant(_ text: String) -> Date? {
        ISOInstant.parse(text)
    }
}

/// "; did you mean 'x'?" for a near name.
package enum NameSuggestionHint {
    package static func hint(_ name: String, _ candidates: [String]) -> String {
        NameSuggestion.nearestName(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
