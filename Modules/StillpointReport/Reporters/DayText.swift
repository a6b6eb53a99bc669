import PracticeLog

/// Days as the HTML report's charts label them, in English whatever the machine's locale, so that a
/// report looks the same wherever it is made.
///
/// ```swift
/// DayText.long(LocalDay("2024-03-15")!)   // "Fri 15 Mar 2024"
/// DayText.month(3)                         // "Mar"
/// ```
enum DayText {
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Mar` for month 3.
    static func month(_ month: Int) -> String {
        months[(month - 1 + 12) % 12]
    }

    /// `Mon` for Monday.
    static func weekday(_ weekday: Weekday) -> String {
        weekday.rawValue.prefix(1).uppercased() + weekday.rawValue.dropFirst().prefix(2)
    }

    /// `15 Mar 2024`.
    static func medium(_ day: LocalDay) -> String {
        "\(day.day) \(month(day.month)) \(day.year)"
    }

    /// `Fri 15 Mar 2024`.
    static func long(_ day: LocalDay) -> String {
        weekday(day.weekday) + " " + medium(day)
    }

    /// `3 Jan – 10 Feb 2024`, or `3 Dec 2023 – 10 Jan 2024` across years, or `15 Mar 2024` for one day.
    static func range(_ start: LocalDay, _ end: LocalDay) -> String {
        if start == end { return medium(start) }
        let first = start.year == end.year ? "\(start.day) \(month(start.month))" : medium(start)
        return first + " – " + medium(end)
    }
}
