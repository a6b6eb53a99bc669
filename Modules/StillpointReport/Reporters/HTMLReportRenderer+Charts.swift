import Foundation
import PracticeLog
import StillpointStatistics

extension HTMLReportRenderer {
    /// The calendar heatmap of the last 52 weeks, from a statistic shown as a calendar; of the 52 weeks up to
    /// the last session when the last 52 hold none, and the caption says so.
    func heatmapPanel(_ page: Page, _ entry: ReportEntry) -> String {
        // Rows follow the week of the table by weekday, whose first field is the manifest's week_starts_on.
        var weekStart = Weekday.monday
        if case .record(let fields)? = page.value(.byWeekday), let first = fields.first, let weekday = Weekday(rawValue: first.key) {
            weekStart = weekday
        }
        let heatmap = CalendarHeatmap(activity: CalendarHeatmap.activity(of: Page.value(entry)), today: page.today, weekStart: weekStart)
        let days = heatmap.days.values
        let caption = days.isEmpty ? nil
            : (heatmap.isRecent ? "" : "No practice in the last 52 weeks; ")
            + ValueText.plural(Double(days.count), "active day", "active days") + " · "
            + ValueText.plural(Double(days.map(\.sessions).reduce(0, +)), "session", "sessions") + " · "
            + ValueText.duration(days.map(\.seconds).reduce(0, +)) + " in " + heatmap.window
        return panel(entry.label, caption: caption, body: heatmap.svg(),
                     empty: Page.missing(entry) ?? "No practice in the last 52 weeks yet: each day you practise will fill in a square here.")
    }

    /// Sessions per weekday, from a statistic shown by weekday.
    func weekdayPanel(_ page: Page, _ entry: ReportEntry) -> String {
        let tallies = Self.tallies(Page.value(entry))
        let bars = tallies.map { key, tally in
            let name = ValueText.label(forKey: key)
            return BarChart.Bar(label: Weekday(rawValue: key).map(DayText.weekday) ?? name, value: tally.count,
                                valueLabel: ValueText.whole(tally.count), tooltip: name + ": " + Self.describe(tally))
        }
        let busiest = tallies.max { $0.tally.count < $1.tally.count }
        let chart = BarChart(bars: bars, style: "sage", tickLabel: { ValueText.whole($0) })
        let hasData = bars.contains { $0.value > 0 }
        return panel(entry.label, caption: hasData ? busiest.map { "Most on " + ValueText.label(forKey: $0.key) + "s" } : nil,
                     body: hasData ? chart.svg(description: entry.label) : nil,
                     empty: Page.missing(entry) ?? "No sessions yet.")
    }

    /// Sessions per hour of the day, from a statistic shown by hour.
    func hourPanel(_ page: Page, _ entry: ReportEntry) -> String {
        let tallies = Self.tallies(Page.value(entry))
        let bars = tallies.map { key, tally in
            let hour = ValueText.label(forKey: key, presentation: .byHour)
            return BarChart.Bar(label: Int(key).map(String.init) ?? key, value: tally.count,
                                tooltip: hour + ": " + Self.describe(tally))
        }
        let busiest = tallies.max { $0.tally.count < $1.tally.count }
        // Every third hour is labelled: 24 labels would collide at this width.
        let chart = BarChart(bars: bars, style: "lavender", tickLabel: { ValueText.whole($0) }, labelEvery: 3)
        let hasData = bars.contains { $0.value > 0 }
        return panel(entry.label, caption: hasData ? busiest.map { "Most often at " + ValueText.label(forKey: $0.key, presentation: .byHour) } : nil,
                     body: hasData ? chart.svg(description: entry.label + " of the day") : nil,
                     empty: Page.missing(entry) ?? "No sessions yet.")
    }

    /// Time practised per month (or quarter, or year), from a statistic shown by period, the latest 24 periods
    /// through the report's day: the periods after the last session are drawn empty, so a lapse shows as one.
    /// When none of those 24 has practice, the 24 periods up to the last that has are drawn instead, and the
    /// caption says so: a history that ended years ago shows its last two years, not an empty chart.
    func periodPanel(_ page: Page, _ entry: ReportEntry) -> String {
        var all = Self.tallies(Page.value(entry))
        if let last = all.last?.key {
            all += Self.periodKeys(after: last, through: page.today).map { ($0, (count: 0, time: 0)) }
        }
        let practised = { (period: (key: String, tally: (count: Double, time: Double))) in period.tally.time > 0 || period.tally.count > 0 }
        let hasData = all.contains(where: practised)
        let lastPractised = all.lastIndex(where: practised)
        let lapsed = hasData && !all.suffix(24).contains(where: practised)
        let end = lapsed ? (lastPractised ?? all.count - 1) + 1 : all.count
        let shown = Array(all[..<end].suffix(24))
        let kind = Self.periodKind(all.first?.key ?? "")
        // An outlier period is cut short (BarChart.capsOutliers): the unit follows the bars the axis fits.
        let times = shown.map(\.tally.time).sorted(by: >)
        let longest = times.count >= 3 && times[1] > 0 && times[0] >= BarChart.outlierFactor * times[1] ? times[1] : times.first ?? 0
        // Hours once the bars reach two hours, minutes below, so that the ticks stay round.
        let unit = longest >= 7_200 ? 3_600.0 : 60.0
        let bars = shown.map { key, tally in
            BarChart.Bar(label: Self.periodLabel(key), value: tally.time / unit,
                         valueLabel: shown.count <= 12 ? ValueText.duration(tally.time) : nil,
                         tooltip: key + ": " + Self.describe(tally))
        }
        let chart = BarChart(bars: bars, style: "sand", tickLabel: { ValueText.duration($0 * unit) },
                             width: 1000, height: 240, capsOutliers: true)
        var caption = all.count > shown.count ? "Time practised, the latest \(shown.count) of \(all.count) \(kind.plural)"
            : "Time practised per \(kind.singular)"
        if lapsed, let lastPractised {
            caption = "No practice in the latest 24 \(kind.plural); the \(shown.count) \(kind.plural) up to the last "
                + "with practice, \(all[lastPractised].key)"
        }
        if chart.outlierIndex != nil { caption += "; the longest is cut short, its total above it" }
        return panel(kind.title, caption: hasData ? caption : nil,
                     body: hasData ? chart.svg(description: kind.title) : nil,
                     empty: Page.missing(entry) ?? "No sessions yet.")
    }

    /// The lengths of runs (the current one marked) and the timeline of the runs of the first statistic shown
    /// as runs; nothing when the report has none of them.
    func streakPanel(_ page: Page) -> String {
        let entries = page.report.entries.filter { [.runs, .runLength, .currentRunLength].contains($0.presentation) }
        guard !entries.isEmpty else { return "" }
        var chips = ""
        for entry in entries where entry.presentation != .runs {
            guard let value = Page.value(entry) else { continue }
            let text = ValueText.inline(value) ?? ValueText.noValue
            chips += "<li\(entry.presentation == .currentRunLength ? " class=\"current\"" : "")>\(HTMLText.escape(entry.label)) <strong>\(HTMLText.escape(text))</strong></li>"
        }
        let current = page.value(.currentRunLength).flatMap(Self.amount)
        let runsEntry = page.entries(.runs).first
        var best: [StreakTimeline.Run] = []
        if case .list(let items)? = runsEntry.flatMap(Page.value) {
            best = items.compactMap { ValueText.streak($0).map { StreakTimeline.Run(start: $0.start, end: $0.end) } }
        }
        let activeDays = Set(CalendarHeatmap.activity(of: page.value(.calendar)).filter { $0.sessions > 0 || $0.seconds > 0 }.map(\.day))
        let runs = StreakTimeline.runs(best: best, current: current.flatMap { Int(exactly: $0.rounded()) }, activeDays: activeDays, today: page.today)
        let svg = StreakTimeline(runs: runs, today: page.today).svg()
        let empty = runsEntry.flatMap(Page.missing) ?? "No streaks yet: practise two days in a row to start one."
        let caption = runs.isEmpty ? nil
            : "The best runs of consecutive active days" + (runs.contains(where: \.isCurrent) ? ", and the current one" : "")
        // The chips stand on their own when there is no run to draw, with the reason below them.
        let body: String? = chips.isEmpty && svg == nil ? nil
            : (chips.isEmpty ? "" : "<ul class=\"chips\">\(chips)</ul>\n")
            + (svg ?? "<p class=\"empty\">\(HTMLText.escape(empty))</p>")
        return panel("Streaks", caption: caption, body: body, empty: empty)
    }

    // MARK: Values

    /// The `{count, time}` fields of a record, in order; fields of any other shape are left out.
    static func tallies(_ value: StatisticValue?) -> [(key: String, tally: (count: Double, time: Double))] {
        guard case .record(let fields)? = value else { return [] }
        return fields.compactMap { field in ValueText.tally(field.value).map { (field.key, $0) } }
    }

    static func amount(_ value: StatisticValue) -> Double? {
        if case .quantity(let amount, _) = value { return amount }
        return nil
    }

    /// `12 sessions · 3h 20m`.
    static func describe(_ tally: (count: Double, time: Double)) -> String {
        ValueText.plural(tally.count, "session", "sessions") + " · " + ValueText.duration(tally.time)
    }

    /// What the keys of `totals_by_period` count: `2024-03` months, `2024-Q1` quarters, `2024` years.
    static func periodKind(_ key: String) -> (singular: String, plural: String, title: String) {
        if LocalDay(key) != nil { return ("week", "weeks", "Weekly totals") }
        if key.contains("-Q") { return ("quarter", "quarters", "Quarterly totals") }
        if key.count == 4 { return ("year", "years", "Yearly totals") }
        return ("month", "months", "Monthly totals")
    }

    /// The keys of the periods after `last` through the one holding `today`, in `last`'s form (`2024-03`,
    /// `2024-Q1`, `2024`, or a week's first day `2024-03-04`); empty when `last` is that period or later, or not a period key.
    ///
    /// ```swift
    /// HTMLReportRenderer.periodKeys(after: "2024-11", through: LocalDay("2025-02-10")!)   // ["2024-12", "2025-01", "2025-02"]
    /// ```
    static func periodKeys(after last: String, through today: LocalDay) -> [String] {
        // A week, keyed by its first day: the weeks after it that have begun by today.
        if let week = LocalDay(last) {
            return stride(from: 7, through: max(0, week.distance(to: today)), by: 7).map { week.adding(days: $0).description }
        }
        let parts = last.split(separator: "-", omittingEmptySubsequences: false)
        guard let year = Int(parts[0]), (1...9_999).contains(year) else { return [] }
        // Periods as (year, index within the year, periods per year).
        let perYear: Int, index: Int, todayIndex: Int
        if parts.count == 1 {
            (perYear, index, todayIndex) = (1, 0, 0)
        } else if parts[1].hasPrefix("Q"), let quarter = Int(parts[1].dropFirst()), (1...4).contains(quarter) {
            (perYear, index, todayIndex) = (4, quarter - 1, (today.month - 1) / 3)
        } else if let month = Int(parts[1]), (1...12).contains(month) {
            (perYear, index, todayIndex) = (12, month - 1, today.month - 1)
        } else {
            return []
        }
        let end = today.year * perYear + todayIndex
        var current = year * perYear + index + 1
        var keys: [String] = []
        while current <= end {
            let (y, i) = (current / perYear, current % perYear)
            let yearText = String(format: "%04d", y)
            switch perYear {
            case 1: keys.append(yearText)
            case 4: keys.append(yearText + "-Q\(i + 1)")
            default: keys.append(yearText + "-" + String(format: "%02d", i + 1))
            }
            current += 1
        }
        return keys
    }

    /// `Mar` for `2024-03` (`2024` for January, so the years stay readable), `Q1 '24`, `2024`.
    static func periodLabel(_ key: String) -> String {
        if let week = LocalDay(key) { return "\(DayText.month(week.month)) \(week.day)" }
        let parts = key.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]) else { return key }
        if let month = Int(parts[1]), (1...12).contains(month) {
            return month == 1 ? String(year) : DayText.month(month)
        }
        return "\(parts[1]) '" + String(String(year).suffix(2))
    }
}
