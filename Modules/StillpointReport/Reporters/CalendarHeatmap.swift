import PracticeLog
import StillpointStatistics

/// The calendar heatmap of active days, like a contribution graph: a column per week, a row per weekday,
/// darker for days with more practice. It shows exactly 52 weeks, the 364 days through its last day
/// (``windowDays``), so that "in the last 52 weeks" is true of every number drawn; the first column is
/// drawn from the window's first day. The last day is today, unless those 52 weeks hold no practice and
/// earlier days do: then it is the last day with practice, so that a history that ended years ago (an
/// export made after leaving an app) shows its last year rather than an empty one.
///
/// ```swift
/// let heatmap = CalendarHeatmap(activity: CalendarHeatmap.activity(of: calendarValue), today: LocalDay("2024-03-15")!)
/// heatmap.lastDay   // 2024-03-15, or the last day with practice when the year before it had none
/// heatmap.svg()     // nil when no day has practice
/// ```
struct CalendarHeatmap {
    /// The practice of one local day.
    struct Day: Hashable {
        var day: LocalDay
        var sessions: Int
        var seconds: Double
    }

    let activity: [Day]
    /// The report's day.
    let today: LocalDay
    /// The window's last day: `today`, or the last day with practice when the 52 weeks through today have none.
    let lastDay: LocalDay
    /// The weekday of the top row.
    let weekStart: Weekday
    /// Columns: the weeks that hold the window's days, 53 unless the window starts on the week's first day.
    var weeks: Int { firstDay.distance(to: lastDay) / 7 + 1 }

    init(activity: [Day], today: LocalDay, weekStart: Weekday = .monday) {
        self.activity = activity
        self.today = today
        self.weekStart = weekStart
        let practised = activity.filter { $0.day <= today && ($0.sessions > 0 || $0.seconds > 0) }.map(\.day)
        let recent = today.adding(days: -(Self.windowDays - 1))
        if let last = practised.max(), last < recent {
            lastDay = last
        } else {
            lastDay = today
        }
    }

    /// Whether the window ends today: its days are the last 52 weeks.
    var isRecent: Bool { lastDay == today }

    /// What the window is, for its caption and its label: `the last 52 weeks`, or
    /// `the 52 weeks up to the last session, 3 May 2021`.
    var window: String {
        isRecent ? "the last 52 weeks" : "the 52 weeks up to the last session, " + DayText.medium(lastDay)
    }

    /// The days of the window: 52 weeks.
    static let windowDays = 364

    private static let pitch = 14.0, cell = 11.0, left = 34.0, top = 22.0

    /// The first day of the window: 363 days before its last.
    var windowStart: LocalDay {
        lastDay.adding(days: -(Self.windowDays - 1))
    }

    /// The top of the first column: the start of the week that holds the window's first day. Days of that
    /// week before the window are left blank.
    var firstDay: LocalDay {
        windowStart.startOfWeek(startingOn: weekStart)
    }

    /// The days of a value shown as a ``StatisticPresentation/calendar``: its fields keyed by date, each a
    /// `{count, time}` tally; fields of another shape are left out.
    static func activity(of value: StatisticValue?) -> [Day] {
        guard case .record(let fields)? = value else { return [] }
        return fields.compactMap { field in
            guard let day = LocalDay(field.key), let tally = ValueText.tally(field.value),
                  let sessions = Int(exactly: tally.count.rounded()) else { return nil }
            return Day(day: day, sessions: sessions, seconds: tally.time)
        }
    }

    /// The practice of each drawn day that has some.
    var days: [LocalDay: Day] {
        var days: [LocalDay: Day] = [:]
        for entry in activity where entry.day >= windowStart && entry.day <= lastDay && (entry.sessions > 0 || entry.seconds > 0) {
            // Several entries for one day add up.
            var total = days[entry.day] ?? Day(day: entry.day, sessions: 0, seconds: 0)
            total.sessions += entry.sessions
            total.seconds += entry.seconds
            days[entry.day] = total
        }
        return days
    }

    /// The upper bounds, in seconds, of levels 1 to 3; level 4 is above the last.
    ///
    /// Quartiles of the active days, so a habit of short sittings still shows its shades; with fewer than four
    /// different lengths, quarters of the longest day.
    static func thresholds(_ seconds: [Double]) -> [Double] {
        let sorted = seconds.sorted()
        guard let longest = sorted.last else { return [0, 0, 0] }
        if Set(sorted).count < 4 { return [0.25, 0.5, 0.75].map { $0 * longest } }
        return [0.25, 0.5, 0.75].map { sorted[min(sorted.count - 1, Int(Double(sorted.count) * $0))] }
    }

    /// The SVG, or `nil` when there is nothing to draw.
    func svg() -> String? {
        let days = self.days
        guard !days.isEmpty else { return nil }
        let thresholds = Self.thresholds(days.values.map(\.seconds))
        let n = HTMLText.number
        let (pitch, cell, left, top) = (Self.pitch, Self.cell, Self.left, Self.top)
        let width = left + pitch * Double(weeks) + 4
        let height = top + pitch * 7 + 30
        var svg = "<svg class=\"chart heatmap\" viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" aria-label=\"Active days over \(window)\">"

        // Weekday labels on every other row, as a contribution graph has them.
        for row in [0, 2, 4] {
            let weekday = Weekday.week(startingOn: weekStart)[row]
            svg += "<text class=\"tick\" x=\"\(n(left - 8))\" y=\"\(n(top + pitch * Double(row) + cell - 1.5))\" text-anchor=\"end\">\(DayText.weekday(weekday))</text>"
        }
        for (column, month) in monthLabels() {
            svg += "<text class=\"tick\" x=\"\(n(left + pitch * Double(column)))\" y=\"\(n(top - 8))\">\(DayText.month(month))</text>"
        }
        for column in 0..<weeks {
            let weekFirst = firstDay.adding(days: 7 * column)
            for row in 0..<7 {
                let day = weekFirst.adding(days: row)
                guard day <= lastDay else { break }
                guard day >= windowStart else { continue }
                let practice = days[day]
                let level = practice.map { Self.level($0.seconds, thresholds) } ?? 0
                let tip = DayText.long(day) + (practice.map {
                    " · " + ValueText.plural(Double($0.sessions), "session", "sessions") + " · " + ValueText.duration($0.seconds)
                } ?? " · no practice")
                svg += "<rect class=\"day l\(level)\" x=\"\(n(left + pitch * Double(column)))\" y=\"\(n(top + pitch * Double(row)))\" width=\"\(n(cell))\" height=\"\(n(cell))\" rx=\"2\"><title>\(HTMLText.escape(tip))</title></rect>"
            }
        }

        // The legend, right-aligned under the grid, each shade with its range as a tooltip.
        let legendY = top + pitch * 7 + 12
        let legendRight = left + pitch * Double(weeks) - 3
        let legendStart = legendRight - pitch * 5 - 30
        svg += "<text class=\"tick\" x=\"\(n(legendStart - 6))\" y=\"\(n(legendY + cell - 1.5))\" text-anchor=\"end\">Less</text>"
        let bounds = [0] + thresholds
        for level in 0...4 {
            let tip: String
            switch level {
            case 0: tip = "no practice"
            case 4: tip = "more than " + ValueText.duration(bounds[3])
            default: tip = "up to " + ValueText.duration(bounds[level])
            }
            svg += "<rect class=\"day l\(level)\" x=\"\(n(legendStart + pitch * Double(level)))\" y=\"\(n(legendY))\" width=\"\(n(cell))\" height=\"\(n(cell))\" rx=\"2\"><title>\(tip)</title></rect>"
        }
        svg += "<text class=\"tick\" x=\"\(n(legendStart + pitch * 5 + 2))\" y=\"\(n(legendY + cell - 1.5))\">More</text>"
        return svg + "</svg>"
    }

    /// The columns that name a month: each column holding a month's first day, and the first column when
    /// the next name is far enough away for both to fit.
    func monthLabels() -> [(column: Int, month: Int)] {
        var labels: [(column: Int, month: Int)] = []
        for column in 0..<weeks {
            let weekFirst = firstDay.adding(days: 7 * column)
            if let first = (0..<7).map({ weekFirst.adding(days: $0) }).first(where: { $0.day == 1 && $0 >= windowStart && $0 <= lastDay }) {
                labels.append((column, first.month))
            }
        }
        if (labels.first?.column ?? weeks) >= 3 {
            labels.insert((0, windowStart.month), at: 0)
        }
        return labels
    }

    /// 1 to 4: the level of a day with `seconds` of practice.
    static func level(_ seconds: Double, _ thresholds: [Double]) -> Int {
        1 + thresholds.filter { seconds > $0 }.count
    }
}
