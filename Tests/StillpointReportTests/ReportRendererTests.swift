import Foundation
import PracticeLog
import StillpointManifest
@testable import StillpointReport
import StillpointStatistics
import Testing

@Suite("Report renderers")
struct ReportRendererTests {
    /// Every value a statistic could hand over, however absurd: each renderer writes something, never traps.
    static let absurd = Report(asOf: SampleReports.asOf, timeZone: SampleReports.berlin, entries: [
        SampleReports.finished("total_time", "Total time", .quantity(.infinity, .seconds)),
        SampleReports.finished("average_session_time", "Average", .quantity(.nan, .seconds)),
        SampleReports.finished("longest_session", "Longest", .quantity(1e300, .seconds)),
        SampleReports.finished("session_count", "Sessions", .quantity(-.infinity, .count)),
        SampleReports.finished("active_days", "Active days", .quantity(Double.greatestFiniteMagnitude, .days)),
        SampleReports.finished("current_streak", "Current streak", .quantity(1e300, .days)),
        SampleReports.finished("longest_streak", "Longest streak", .quantity(.infinity, .days)),
        SampleReports.finished("consistency", "Consistency", .quantity(.nan, .percent)),
        SampleReports.finished("sessions_by_weekday", "By weekday", .record([
            StatisticField("monday", SampleReports.tally(3, .infinity)),
            StatisticField("tuesday", SampleReports.tally(1, 1e300)),
        ])),
        SampleReports.finished("sessions_by_hour", "By hour", .record([
            StatisticField("7", SampleReports.tally(2, -.infinity)),
        ])),
        SampleReports.finished("totals_by_period", "By month", .record([
            StatisticField("2024-03", SampleReports.tally(2, 1e300)),
        ])),
    ])

    @Test(arguments: ReportFormat.builtIn)
    func renderValuesNoSessionCanHave(format: ReportFormat) throws {
        let renderer = try #require(ReportRenderers.builtIn.renderer(for: format))
        var report = Self.absurd
        report.entries.append(SampleReports.finished("daily_activity", "Practice calendar", SampleReports.calendar([
            (SampleReports.day("2024-03-15"), 1, .infinity), (SampleReports.day("2024-03-14"), 1, 1e300),
        ])))
        let text = renderer.render(report)
        #expect(!text.isEmpty)
        #expect(text.firstMatch(of: /(?i)\b(inf|infinity|nan)\b/) == nil, "\(text)")
    }
}
