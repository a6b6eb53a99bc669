import Foundation
import PracticeLog
import Testing
@testable import StillpointReport
import StillpointStatistics

@Suite("HTML report")
struct HTMLReportRendererTests {
    static let chartLabels = ["Active days over the last 52 weeks", "Sessions by weekday", "Sessions by hour of the day",
                              "Monthly totals", "Streak timeline"]

    @Test func drawsEveryChartAsInlineSVG() {
        let html = HTMLReportRenderer().render(SampleReports.year())
        for label in Self.chartLabels {
            #expect(html.contains("<svg class=\"chart") && html.contains("aria-label=\"\(label)\""), "no chart \(label)")
        }
        #expect(html.components(separatedBy: "<svg class=\"chart").count - 1 == Self.chartLabels.count)
    }

    @Test func isSelfContained() {
        for report in [SampleReports.year(), SampleReports.fixed] {
            let html = HTMLReportRenderer().render(report)
            #expect(!html.contains("http"))
            #expect(!html.contains("<script"))
            #expect(!html.contains("<link"))
            #expect(html.hasPrefix("<!doctype html>"))
        }
    }

    @Test func givesEveryOtherStatisticACard() {
        let html = HTMLReportRenderer().render(SampleReports.fixed)
        for title in ["Sessions", "Total time", "Average session time", "Active days", "Weekly streak", "Consistency", "By kind and source"] {
            #expect(html.contains("<h3>\(title)</h3>"), "no card for \(title)")
        }
        #expect(html.contains("<article class=\"card failed\"><h3>Median session time</h3>"))
        #expect(html.contains("<article class=\"card cancelled\"><h3>Longest session</h3>"))
        #expect(!html.contains("<h3>Sessions by weekday</h3>"))
    }

    @Test func escapesNamesFromTheManifest() {
        let report = Report(asOf: SampleReports.asOf, timeZone: .gmt, entries: [
            SampleReports.finished("session_count", "Sessions", .quantity(3, .count), name: "<script>alert('x')</script>"),
            SampleReports.entry("total_time", "Total time", .failed(message: "<b>bold</b> & \"quoted\"")),
        ])
        let html = HTMLReportRenderer().render(report)
        #expect(!html.contains("<script"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"))
        #expect(html.contains("&lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot;"))
    }

    @Test func chartsWithoutDataSaySo() {
        let empty = Report(asOf: SampleReports.asOf, timeZone: .gmt, entries: [
            SampleReports.finished("sessions_by_weekday", "Sessions by weekday", .record(Weekday.allCases.map {
                StatisticField($0.rawValue, SampleReports.tally(0, 0))
            })),
            SampleReports.entry("sessions_by_hour", "Sessions by hour", .failed(message: "boom")),
            SampleReports.finished("totals_by_period", "Totals by period", .record([])),
            SampleReports.finished("daily_activity", "Practice calendar", .record([])),
            SampleReports.finished("best_streaks", "Best streaks", .list([])),
        ])
        let html = HTMLReportRenderer().render(empty)
        #expect(!html.contains("<svg class=\"chart"))
        #expect(html.contains("No practice in the last 52 weeks yet"))
        #expect(html.contains("sessions_by_hour failed: boom"))
        #expect(html.components(separatedBy: "No sessions yet.").count - 1 == 2)
        #expect(html.contains("No streaks yet"))
    }

    /// The reporters know no statistic: one they have never heard of gets the chart its presentation names.
    @Test func aStatisticOfAnyModuleIsChartedByItsPresentation() throws {
        let hours = StatisticValue.record((0..<24).map { StatisticField(String($0), SampleReports.tally($0 == 7 ? 4 : 0, $0 == 7 ? 3_600 : 0)) })
        let report = Report(asOf: SampleReports.asOf, timeZone: .gmt, entries: [
            ReportEntry(id: "care_sits_by_hour", name: "care_sits_by_hour", title: "Sits by hour", presentation: .byHour,
                        outcome: .finished(StatisticResult(hours))),
            ReportEntry(id: "care_calendar", name: "care_calendar", title: "Clinic days", presentation: .calendar,
                        outcome: .finished(StatisticResult(SampleReports.calendar([(SampleReports.day("2024-03-14"), 2, 1_200)])))),
        ])
        let html = HTMLReportRenderer().render(report)
        #expect(html.contains("<h2>Sits by hour</h2><p>Most often at 07:00</p>"))
        #expect(html.contains("<h2>Clinic days</h2><p>1 active day · 2 sessions · 20m in the last 52 weeks</p>"))
        #expect(!html.contains("<article class=\"card"))
        let text = TextReportRenderer().render(report)
        #expect(text.contains("\n  07:00      4 sessions · 1h\n"))
        #expect(text.contains("1 active day · 2 sessions · 20m"))
    }

    @Test func heatmapCoversTheLast52WeeksThroughToday() throws {
        let heatmap = CalendarHeatmap(activity: [.init(day: SampleReports.day("2024-03-15"), sessions: 1, seconds: 600)],
                                      today: SampleReports.day("2024-03-15"))
        #expect(heatmap.windowStart == SampleReports.day("2023-03-18"))
        #expect(heatmap.firstDay == SampleReports.day("2023-03-13"))
        let svg = try #require(heatmap.svg())
        // Exactly 52 weeks of days, 2023-03-18 through 2024-03-15, plus the five squares of the legend.
        #expect(svg.components(separatedBy: "<rect class=\"day").count - 1 == 364 + 5)
    }

    // MARK: The numbers of the SVG

    /// WCAG's relative luminance of `#rrggbb`.
    static func luminance(_ hex: String) -> Double {
        let digits = Array(hex.dropFirst())
        let channels = stride(from: 0, to: 6, by: 2).map { Double(Int(String(digits[$0..<$0 + 2]), radix: 16) ?? 0) / 255 }
        let linear = channels.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    static func contrast(_ a: String, _ b: String) -> Double {
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    /// Every match of `pattern`'s first group in `text`.
    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    /// The SVG with `label` of a page.
    static func svg(_ label: String, in html: String) throws -> String {
        let start = try #require(html.range(of: "aria-label=\"\(label)\""))
        let end = try #require(html.range(of: "</svg>", range: start.upperBound..<html.endIndex))
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// Days without practice and the lightest shade of practice: the fills of the heatmap's `l0` and `l1`
    /// classes, from the page's style sheet, light and dark, at least 3:1 apart.
    @Test func noPracticeAndTheLightestPracticeAreThreeToOneApart() throws {
        let html = HTMLReportRenderer().render(SampleReports.year())
        #expect(html.contains(".l0 { fill: var(--l0); }") && html.contains(".l1 { fill: var(--l1); }"))
        let l0 = Self.matches("--l0: (#[0-9a-fA-F]{6})", in: html), l1 = Self.matches("--l1: (#[0-9a-fA-F]{6})", in: html)
        #expect(l0.count == 2 && l1.count == 2, "light and dark variants")
        for (none, lightest) in zip(l0, l1) {
            #expect(Self.contrast(none, lightest) >= 3, "\(none) and \(lightest): \(Self.contrast(none, lightest))")
        }
        let svg = try Self.svg("Active days over the last 52 weeks", in: html)
        #expect(svg.contains("class=\"day l0\"") && svg.contains("class=\"day l1\""))
    }

    /// Practice every day for 400 days: the heatmap draws 364 days, all active, and its sentence says 364.
    @Test func theHeatmapsWindowAndItsSentenceAgree() throws {
        let today = SampleReports.day("2024-03-15")
        let activity = SampleReports.calendar((0..<400).map { (today.adding(days: -$0), 1, 900) })
        let report = Report(asOf: SampleReports.asOf, timeZone: SampleReports.berlin,
                            entries: [SampleReports.finished("daily_activity", "Practice calendar", activity)])
        let html = HTMLReportRenderer().render(report)
        let svg = try Self.svg("Active days over the last 52 weeks", in: html).components(separatedBy: ">Less<")[0]
        let days = Self.matches("<rect class=\"day (l[0-4])\" x=\"[^\"]*\" y=\"[^\"]*\" width=\"[^\"]*\" height=\"[^\"]*\" rx=\"2\"><title>[^<]*(?:session|no practice)", in: svg)
        #expect(days.count == 364, "\(days.count) days drawn")
        #expect(!days.contains("l0"))
        #expect(html.contains("<p>364 active days · 364 sessions · 91h in the last 52 weeks</p>"))
    }

    /// The last session in June 2023, the report in March 2024: the chart runs through March, empty months
    /// included.
    @Test func monthlyTotalsRunThroughTheReportsMonth() throws {
        let months = ["2023-04", "2023-05", "2023-06"]
        let report = Report(asOf: SampleReports.asOf, timeZone: SampleReports.berlin, entries: [
            SampleReports.finished("totals_by_period", "Totals by period",
                                   .record(months.map { StatisticField($0, SampleReports.tally(10, 18_000)) })),
        ])
        let svg = try Self.svg("Monthly totals", in: HTMLReportRenderer().render(report))
        let keys = Self.matches("<g><title>([0-9]{4}-[0-9]{2}):", in: svg)
        #expect(keys == ["2023-04", "2023-05", "2023-06", "2023-07", "2023-08", "2023-09", "2023-10", "2023-11", "2023-12",
                         "2024-01", "2024-02", "2024-03"])
        #expect(svg.components(separatedBy: "class=\"bar empty\"").count - 1 == 9)
        #expect(HTMLReportRenderer.periodKeys(after: "2023-Q3", through: SampleReports.day("2024-03-15")) == ["2023-Q4", "2024-Q1"])
        #expect(HTMLReportRenderer.periodKeys(after: "2021", through: SampleReports.day("2024-03-15")) == ["2022", "2023", "2024"])
        #expect(HTMLReportRenderer.periodKeys(after: "2024-05", through: SampleReports.day("2024-03-15")).isEmpty)
        #expect(HTMLReportRenderer.periodKeys(after: "2024-02-26", through: SampleReports.day("2024-03-15")) == ["2024-03-04", "2024-03-11"])
        #expect(HTMLReportRenderer.periodKind("2024-03-04").title == "Weekly totals")
        #expect(HTMLReportRenderer.periodLabel("2024-03-04") == "Mar 4")
    }

    /// A history that ended years ago (an export made after leaving an app): the last session on 2021-05-03, the
    /// report in March 2024. The calendar shows the 52 weeks up to that day and the monthly totals the 24 months
    /// up to May 2021, each saying so, instead of empty charts.
    static func endedYearsAgo() -> Report {
        let last = SampleReports.day("2021-05-03")
        let days = (0..<900).filter { $0 % 3 == 0 }.map { (last.adding(days: -$0), 1, 1_200.0) }
        var months: [String: Double] = [:]
        for day in days { months[String(day.0.description.prefix(7)), default: 0] += day.2 }
        return Report(asOf: SampleReports.asOf, timeZone: SampleReports.berlin, entries: [
            SampleReports.finished("daily_activity", "Practice calendar", SampleReports.calendar(days)),
            SampleReports.finished("totals_by_period", "Totals by period", .record(months.sorted { $0.key < $1.key }.map {
                StatisticField($0.key, SampleReports.tally(Int($0.value / 1_200), $0.value))
            })),
        ])
    }

    @Test func aHistoryThatEndedYearsAgoShowsTheYearUpToItsLastSession() throws {
        let html = HTMLReportRenderer().render(Self.endedYearsAgo())
        #expect(!html.contains("No practice in the last 52 weeks yet"))
        let svg = try Self.svg("Active days over the 52 weeks up to the last session, 3 May 2021", in: html)
        let tips = Self.matches("<title>([A-Z][a-z]{2} [0-9]+ [A-Z][a-z]{2} [0-9]{4}) ·", in: svg.components(separatedBy: ">Less<")[0])
        #expect(tips.count == 364, "\(tips.count) days drawn")
        #expect(tips.first == "Tue 5 May 2020" && tips.last == "Mon 3 May 2021", "\(tips.first ?? "") – \(tips.last ?? "")")
        // 2021-05-03 and every third day before it within the window: 122 days of 20 minutes.
        #expect(html.contains("<p>No practice in the last 52 weeks; 122 active days · 122 sessions · 40h 40m in the 52 weeks "
                              + "up to the last session, 3 May 2021</p>"), "\(html)")
    }

    @Test func aHistoryThatEndedYearsAgoShowsTheMonthsUpToItsLastSession() throws {
        let html = HTMLReportRenderer().render(Self.endedYearsAgo())
        let svg = try Self.svg("Monthly totals", in: html)
        let keys = Self.matches("<g><title>([0-9]{4}-[0-9]{2}):", in: svg)
        #expect(keys.count == 24 && keys.first == "2019-06" && keys.last == "2021-05", "\(keys)")
        #expect(!svg.contains("class=\"bar empty\""))
        #expect(html.contains("<p>No practice in the latest 24 months; the 24 months up to the last with practice, 2021-05</p>"))
        // The scale is in hours, from the months drawn.
        let ticks = Self.matches("<text class=\"tick\"[^>]*>([^<]*)</text>", in: svg)
        #expect(ticks.first == "0" && ticks.dropFirst().allSatisfy { $0.hasSuffix("h") } && ticks.count > 2, "\(ticks)")
    }

    /// A chart whose bars are all zero has no scale to show: its top gridline has no value such as `1m`.
    @Test func anEmptyChartShowsNoUnitAsItsScale() {
        let bars = ["2024-01", "2024-02", "2024-03"].map { BarChart.Bar(label: $0, value: 0, tooltip: $0) }
        let svg = BarChart(bars: bars, style: "sand", tickLabel: { ValueText.duration($0 * 60) }).svg(description: "Monthly totals")
        #expect(Self.matches("<text class=\"tick\"[^>]*>([^<]*)</text>", in: svg) == ["0"], "\(svg)")
        #expect(svg.components(separatedBy: "<line class=\"grid\"").count - 1 == 2)
    }

    /// One 22-hour month among months of 4 to 6 hours: the axis fits the others, the outlier reaches the top
    /// cut short, with a break, and its whole total above it.
    @Test func anOutlierMonthIsCutShortAndMarked() throws {
        let hours: [(String, Double)] = [("2024-01", 5), ("2024-02", 22), ("2024-03", 6)]
        let earlier: [(String, Double)] = [("2023-11", 4), ("2023-12", 5)]
        let report = Report(asOf: SampleReports.asOf, timeZone: SampleReports.berlin, entries: [
            SampleReports.finished("totals_by_period", "Totals by period",
                                   .record((earlier + hours).map { StatisticField($0.0, SampleReports.tally(8, $0.1 * 3_600)) })),
        ])
        let html = HTMLReportRenderer().render(report)
        let svg = try Self.svg("Monthly totals", in: html)
        let ticks = Self.matches("<text class=\"tick\"[^>]*>([0-9]+)h</text>", in: svg).compactMap(Double.init)
        let top = try #require(ticks.max())
        #expect(top < 22 && top >= 6, "the axis fits the other months: \(ticks)")
        // The plot is 240 - 20 - 26 = 194 high from y = 20: the outlier fills it.
        let outlier = Self.matches("(<rect class=\"bar sand outlier\"[^>]*>)", in: svg)
        #expect(outlier.count == 1)
        #expect(outlier.first?.contains("y=\"20\" ") == true && outlier.first?.contains("height=\"194\"") == true, "\(outlier)")
        #expect(svg.components(separatedBy: "class=\"break\"").count - 1 == 2)
        #expect(svg.contains("<text class=\"value outlier\"") && svg.contains(">22h</text>"))
        // The other months keep their proportions on the axis: 6 h is 6/top of the plot.
        let heights = Self.matches("<rect class=\"bar sand\" x=\"[^\"]*\" y=\"[^\"]*\" width=\"[^\"]*\" height=\"([0-9.]+)\"", in: svg).compactMap(Double.init)
        #expect(heights.contains { abs($0 - 194 * 6 / top) < 0.2 }, "\(heights)")
        #expect(html.contains("the longest is cut short, its total above it"))
        // Without an outlier nothing is cut short.
        let even = Report(asOf: SampleReports.asOf, timeZone: SampleReports.berlin, entries: [
            SampleReports.finished("totals_by_period", "Totals by period",
                                   .record(hours.map { StatisticField($0.0, SampleReports.tally(8, 5 * 3_600)) })),
        ])
        #expect(!HTMLReportRenderer().render(even).contains("class=\"bar sand outlier\""))
    }

    /// A streak of 2,000 days running to today, and older runs: every caption stays inside the chart and
    /// clear of the day counts left of the bars.
    @Test(arguments: [2_000, 400, 40])
    func streakCaptionsStayClearOfTheirDayCounts(length: Int) throws {
        let today = SampleReports.day("2024-03-15")
        let runs = [
            StreakTimeline.Run(start: today.adding(days: -(length - 1)), end: today, isCurrent: true),
            StreakTimeline.Run(start: SampleReports.day("2017-01-01"), end: SampleReports.day("2017-02-10")),
        ]
        let svg = try #require(StreakTimeline(runs: runs, today: today).svg())
        let left = 92.0, width = 1000.0
        let texts = Self.matches("(<text class=\"(?:caption|run-length)[^>]*>[^<]*</text>)", in: svg)
        #expect(texts.count == 4)
        for text in texts {
            let x = try #require(Self.matches("x=\"([-0-9.]+)\"", in: text).first.flatMap(Double.init))
            let content = try #require(Self.matches(">([^<]*)</text>", in: text).first)
            let extent = StreakTimeline.textWidth(content)
            let (from, to) = text.contains("text-anchor=\"end\"") ? (x - extent, x) : (x, x + extent)
            #expect(from >= 0 && to <= width, "\(content) from \(from) to \(to)")
            if text.contains("class=\"caption") {
                #expect(from >= left - 4, "\(content) runs over the day counts: from \(from)")
            }
        }
    }

    /// by_kind of an empty store: a card that says there is nothing to group, not a line of dashes.
    @Test func anEmptyBreakdownSaysSo() {
        let report = Report(asOf: SampleReports.asOf, timeZone: .gmt, entries: [
            SampleReports.finished("by_kind", "By kind and source", .record([
                StatisticField("kind", .record([])), StatisticField("source", .record([])),
            ])),
        ])
        let html = HTMLReportRenderer().render(report)
        #expect(html.contains("no sessions to group yet"))
        #expect(!html.contains("Kind —"))
    }

    /// Narrow screens: the breakdowns' columns can shrink, and their values wrap.
    @Test func breakdownsFitNarrowScreens() {
        let css = HTMLStyle.css
        #expect(css.contains("minmax(min(300px, 100%), 1fr)"))
        #expect(css.contains("@media (max-width: 560px)"))
    }

    @Test func heatmapLevelsFollowTheQuartilesOfActiveDays() {
        let thresholds = CalendarHeatmap.thresholds([600, 900, 1_200, 1_800, 2_400, 3_600, 4_800, 6_000])
        #expect(thresholds == [1_200, 2_400, 4_800])
        #expect(CalendarHeatmap.level(600, thresholds) == 1)
        #expect(CalendarHeatmap.level(6_000, thresholds) == 4)
    }

    @Test func streakTimelineAddsTheCurrentRunUnlessItIsAmongTheBest() {
        let today = SampleReports.day("2024-03-15")
        let best = [StreakTimeline.Run(start: SampleReports.day("2024-01-01"), end: SampleReports.day("2024-01-10"))]
        let runs = StreakTimeline.runs(best: best, current: 3, activeDays: [today], today: today)
        #expect(runs.map(\.start) == [SampleReports.day("2024-01-01"), SampleReports.day("2024-03-13")])
        #expect(runs.last?.isCurrent == true)
        let yesterday = StreakTimeline.runs(best: [], current: 2, activeDays: [today.adding(days: -1)], today: today)
        #expect(yesterday.first?.end == today.adding(days: -1))
    }

    /// Writes the sample report where `STILLPOINT_SAMPLE_HTML` says, for `Scripts/make-sample-report.sh`.
    @Test func writesTheSampleReportWhenAsked() throws {
        guard let path = ProcessInfo.processInfo.environment["STILLPOINT_SAMPLE_HTML"], !path.isEmpty else { return }
        try Data(HTMLReportRenderer().render(SampleReports.year()).utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Coordinates come from values; one no chart can draw (1e300, infinity) still gives a number, not a trap.
    @Test func coordinatesAreTotal() {
        #expect(HTMLText.number(12.34) == "12.3")
        #expect(HTMLText.number(-0.25) == "-0.3" || HTMLText.number(-0.25) == "-0.2")
        #expect(HTMLText.number(.infinity) == "0")
        #expect(HTMLText.number(.nan) == "0")
        #expect(HTMLText.number(1e300) == "100000000000000")
        #expect(HTMLText.number(-1e300) == "-100000000000000")
    }
}
