import Foundation
import PracticeLog
import StillpointStatistics

/// Statistic values as people read them: `1h 23m`, `12 days`, `87 %`, `3 sessions · 1h 30m`.
///
/// Shared by the text, Markdown and HTML reporters and the live view, so that a value reads the same
/// everywhere. Machine formats (JSON, CSV) use ``MachineText`` instead. Text from outside (file names, an
/// export's fields, a manifest) is shown through ``visible(_:keepingLineBreaks:)``, by every output.
///
/// ```swift
/// ValueText.quantity(4_980, .seconds)   // "1h 23m"
/// ValueText.quantity(12, .days)         // "12 days"
/// ```
public enum ValueText {
    /// Written where a statistic has no value, such as the average of no sessions.
    static let noValue = "—"

    /// A quantity in its unit, rounded as people expect: whole minutes past an hour, whole seconds below.
    static func quantity(_ value: Double, _ unit: StatisticUnit) -> String {
        guard value.isFinite else { return noValue }
        switch unit {
        case .seconds: return duration(value)
        case .days: return plural(value, "day", "days")
        case .weeks: return plural(value, "week", "weeks")
        case .count: return whole(value)
        case .percent: return whole(value) + " %"
        }
    }

    /// `45s`, `12m 5s`, `1h 23m`, `250h`: hours never roll over into days, since "250h" of practice reads
    /// better than "10d 10h".
    ///
    /// Total over any double: no value for `nan` and `inf`, and hours written as a number beyond 10^15 hours,
    /// where whole minutes no longer fit an `Int`.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite else { return noValue }
        let sign = seconds < 0 ? "-" : ""
        let magnitude = abs(seconds)
        if magnitude < 3_600 - 30 {
            let total = Int(magnitude.rounded())  // swiftlint:disable:this trapping_conversion: under an hour
            let (minutes, rest) = (total / 60, total % 60)
            if minutes == 0 { return "\(sign)\(rest)s" }
            return rest == 0 ? "\(sign)\(minutes)m" : "\(sign)\(minutes)m \(rest)s"
        }
        guard magnitude / 3_600 < 1e15 else { return "\(sign)\(whole(magnitude / 3_600))h" }
        let totalMinutes = Int((magnitude / 60).rounded())  // swiftlint:disable:this trapping_conversion: under 10^15 hours
        let (hours, minutes) = (grouped(totalMinutes / 60), totalMinutes % 60)
        return minutes == 0 ? "\(sign)\(hours)h" : "\(sign)\(hours)h \(minutes)m"
    }

    /// Text from outside made safe to show: each control character (C0, DEL, C1), line or paragraph separator
    /// and bidirectional control is written as Swift writes it in a string literal (`\n`, `\r`, `\t`, else
    /// `\u{1B}` in hexadecimal), so that a file name or an export's field can neither drive a terminal
    /// (clear it, retitle it) nor start a line of its own that reads like the tool's. A backslash is shown as
    /// is: the escape is for reading, not for copying back.
    ///
    /// ```swift
    /// ValueText.visible("log\u{1B}[2J\nrun 99.csv")   // #"log\u{1B}[2J\nrun 99.csv"#
    /// ValueText.visible("a\nb", keepingLineBreaks: true) // "a\nb", still two lines
    /// ```
    ///
    /// - Parameter keepingLineBreaks: keeps `\n` as a line break, for text of several lines made by the tool
    ///   itself, whose outside parts were made visible where they were put in.
    public static func visible(_ text: String, keepingLineBreaks: Bool = false) -> String {
        func hidden(_ scalar: Unicode.Scalar) -> Bool {
            if keepingLineBreaks && scalar == "\n" { return false }
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: return true
            // Bidirectional controls can make a line read in another order than it is written.
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
        guard text.unicodeScalars.contains(where: hidden) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard hidden(scalar) else { result.append(scalar); continue }
            let escape = switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            result.append(contentsOf: escape.unicodeScalars)
        }
        return String(result)
    }

    /// `1 session`, `3 sessions`.
    static func plural(_ value: Double, _ singular: String, _ plural: String) -> String {
        let text = whole(value)
        return "\(text) \(text == "1" ? singular : plural)"
    }

    /// Rounded to an integer, thousands grouped: counts, days and percentages are whole in reports.
    static func whole(_ value: Double) -> String {
        guard value.isFinite else { return noValue }
        guard abs(value) < 1e15 else { return "\(value.rounded())" }
        return grouped(Int(value.rounded()))  // swiftlint:disable:this trapping_conversion: finite, under 10^15
    }

    /// An integer with its thousands separated by commas: `12,345`. Fixed rather than from the locale, so
    /// that reports and golden files read the same on every machine.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = number < 0 ? "-" : ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return result
    }

    /// The value on one line, or `nil` when it needs several (a record of records, a list of records).
    ///
    /// ```swift
    /// ValueText.inline(.record([.init("count", .quantity(3, .count)), .init("time", .quantity(5_400, .seconds))]))
    /// // "3 sessions · 1h 30m"
    /// ```
    static func inline(_ value: StatisticValue) -> String? {
        switch value {
        case .none: return noValue
        case .quantity(let amount, let unit): return quantity(amount, unit)
        case .text(let text): return text
        case .day(let day): return day.description
        case .list(let items):
            if items.isEmpty { return noValue }
            let texts = items.map { item -> String? in isScalar(item) ? inline(item) : nil }
            guard texts.allSatisfy({ $0 != nil }) else { return nil }
            return texts.compactMap { $0 }.joined(separator: ", ")
        case .record(let fields):
            if fields.isEmpty { return noValue }
            if let tally = tally(value) {
                // "0 sessions · 0s" says the same thing twice.
                let sessions = plural(tally.count, "session", "sessions")
                return tally.count == 0 && tally.time == 0 ? sessions : sessions + " · " + duration(tally.time)
            }
            if let run = streak(value) {
                return "\(run.start) – \(run.end) · " + plural(run.length, "day", "days")
            }
            guard fields.allSatisfy({ isScalar($0.value) }) else { return nil }
            return fields.map { "\(label(forKey: $0.key)) \(inline($0.value) ?? noValue)" }.joined(separator: " · ")
        }
    }

    /// The value on one line as its presentation reads it: a calendar of days as its sums, anything else as
    /// ``inline(_:)`` does.
    ///
    /// ```swift
    /// ValueText.inline(calendar, presentation: .calendar)   // "212 active days · 530 sessions · 301h 10m"
    /// ```
    static func inline(_ value: StatisticValue, presentation: StatisticPresentation) -> String? {
        guard presentation == .calendar, case .record(let fields) = value else { return inline(value) }
        let tallies = fields.compactMap { tally($0.value) }.filter { $0.count > 0 || $0.time > 0 }
        guard !tallies.isEmpty else { return plural(0, "active day", "active days") }
        return plural(Double(tallies.count), "active day", "active days") + " · "
            + plural(tallies.map(\.count).reduce(0, +), "session", "sessions") + " · " + duration(tallies.map(\.time).reduce(0, +))
    }

    /// One line whatever the value: ``inline(_:presentation:)`` or a count of its entries, for the live view.
    static func summary(_ value: StatisticValue, presentation: StatisticPresentation = .value) -> String {
        if let text = inline(value, presentation: presentation) { return text }
        switch value {
        case .record(let fields): return plural(Double(fields.count), "entry", "entries")
        case .list(let items): return plural(Double(items.count), "item", "items")
        default: return noValue
        }
    }

    /// A value's rows for a table: each field of a record (each item of a list) with its text, and the rows
    /// of fields that need several lines below them, one level deeper.
    ///
    /// ```swift
    /// ValueText.rows(of: weekdays, presentation: .byWeekday)
    /// // [Row(depth: 0, key: "Monday", text: "3 sessions · 1h 30m"), ...]
    /// ```
    static func rows(of value: StatisticValue, presentation: StatisticPresentation, depth: Int = 0) -> [Row] {
        switch value {
        case .record(let fields):
            return fields.flatMap { field -> [Row] in
                let key = label(forKey: field.key, presentation: presentation)
                if let text = inline(field.value) { return [Row(depth: depth, key: key, text: text)] }
                return [Row(depth: depth, key: key, text: nil)]
                    + rows(of: field.value, presentation: presentation, depth: depth + 1)
            }
        case .list(let items):
            return listEntries(items).flatMap { entry -> [Row] in
                if let text = entry.text { return [Row(depth: depth, key: entry.key, text: text)] }
                return [Row(depth: depth, key: entry.key, text: nil)] + rows(of: entry.value, presentation: presentation, depth: depth + 1)
            }
        default:
            return [Row(depth: depth, key: "", text: inline(value) ?? noValue)]
        }
    }

    /// The items of a list as labelled rows. Runs of days (`best_streaks`) are not numbered, since they are
    /// listed in date order and "1." would read as the best: each is labelled by its dates, with its length as
    /// the text and the longest marked. Other items are labelled by their position, `1.`, `2.`, ….
    ///
    /// ```swift
    /// ValueText.listEntries(bestStreaks)
    /// // [("2024-01-03 – 2024-02-10", "39 days · longest", …), ("2024-03-01 – 2024-03-15", "15 days", …)]
    /// ```
    static func listEntries(_ items: [StatisticValue]) -> [(key: String, text: String?, value: StatisticValue)] {
        let runs = items.compactMap(streak)
        if runs.count == items.count, !runs.isEmpty {
            let longest = runs.map(\.length).max() ?? 0
            // With every run as long as the others, none is the longest.
            let marks = runs.count > 1 && runs.contains { $0.length != longest }
            return zip(runs, items).map { run, item in
                ("\(run.start) – \(run.end)",
                 plural(run.length, "day", "days") + (marks && run.length == longest ? " · longest" : ""), item)
            }
        }
        return items.enumerated().map { ("\($0.offset + 1).", inline($0.element), $0.element) }
    }

    /// One row of ``rows(of:presentation:depth:)``; `text` is `nil` for a heading whose rows follow.
    struct Row: Hashable {
        var depth: Int
        var key: String
        var text: String?
    }

    /// A record key as a label: `insight_timer` → `Insight Timer` (a known source's name), `tai_chi` →
    /// `Tai chi`, hour `7` of a value by hour → `07:00`.
    static func label(forKey key: String, presentation: StatisticPresentation = .value) -> String {
        if presentation == .byHour, let hour = Int(key), (0...23).contains(hour) {
            return (hour < 10 ? "0" : "") + "\(hour):00"
        }
        if presentation == .byName { return key }
        if let name = SessionSource.displayName(of: key) { return name }
        let spaced = key.replacingOccurrences(of: "_", with: " ")
        return spaced.prefix(1).uppercased() + spaced.dropFirst()
    }

    /// What became of an entry that has no value to show: `failed: …`, `cancelled`, `waiting`, `running 40 %`.
    static func status(_ outcome: ReportOutcome, presentation: StatisticPresentation = .value) -> String {
        switch outcome {
        case .waiting: return "waiting"
        case .running(let progress?): return "running " + whole(min(max(progress, 0), 1) * 100) + " %"
        case .running(nil): return "running"
        case .finished(let result): return summary(result.value, presentation: presentation)
        case .failed(let message): return "failed: " + message
        case .cancelled: return "cancelled"
        }
    }

    /// `2024-03-15 13:00 (Europe/Berlin)`: the instant of a report in its own zone.
    static func asOf(_ report: Report) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = report.timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: report.asOf) + " (" + ZoneName.of(report.timeZone) + ")"
    }

    // MARK: Shapes

    /// The `{count, time}` record that statistics grouping sessions produce (by weekday, hour, kind, period).
    static func tally(_ value: StatisticValue) -> (count: Double, time: Double)? {
        guard case .record(let fields) = value, fields.count == 2,
              case .quantity(let count, .count)? = value["count"],
              case .quantity(let time, .seconds)? = value["time"] else { return nil }
        return (count, time)
    }

    /// The `{start, end, length}` record of a run of days (`best_streaks`).
    static func streak(_ value: StatisticValue) -> (start: LocalDay, end: LocalDay, length: Double)? {
        guard case .record(let fields) = value, fields.count == 3,
              case .day(let start)? = value["start"], case .day(let end)? = value["end"],
              case .quantity(let length, .days)? = value["length"] else { return nil }
        return (start, end, length)
    }

    /// Whether a value fits on one line by itself: not a non-empty record or list.
    static func isScalar(_ value: StatisticValue) -> Bool {
        switch value {
        case .record(let fields): return fields.isEmpty
        case .list(let items): return items.isEmpty
        default: return true
        }
    }
}
