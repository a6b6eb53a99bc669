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
            ReportEntry(id: "total_time", name: "total_time", title: "Total time", outcome: .failed(message: "<b>bold</b> & \"quoted\"")),
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
            ReportEntry(id: "sessions_by_hour", name: "sessions_by_hour", title: "Sessions by hour", outcome: .failed(message: "boom")),
            SampleReports.finished("totals_by_period", "Totals by period", .record([])),
        ])
        let html = HTMLReportRenderer().render(empty)
        #expect(!html.contains("<svg class=\"chart"))
        #expect(html.contains("No practice in the last 52 weeks yet"))
        #expect(html.contains("sessions_by_hour failed: boom"))
        #expect(html.components(separatedBy: "No sessions yet.").count - 1 == 2)
        #expect(html.contains("includes neither best_streaks nor current_streak"))
    }

    @Test func heatmapCoversTheLast52WeeksThroughToday() throws {
        let heatmap = CalendarHeatmap(activity: [DailyActivity(day: SampleReports.day("2024-03-15"), sessions: 1, seconds: 600)],
                                      today: SampleReports.day("2024-03-15"))
        #expect(heatmap.firstDay == SampleReports.day("2023-03-13"))
        let svg = try #require(heatmap.svg())
        // 52 full weeks and Monday to Friday of this one, plus the five squares of the legend.
        #expect(svg.components(separatedBy: "<rect class=\"day").count - 1 == 52 * 7 + 5 + 5)
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
