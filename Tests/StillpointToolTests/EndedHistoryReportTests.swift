import Foundation
import StillpointPostgresTestSupport
import Testing

/// A history that ended years ago, as an export made after leaving an app is: the HTML report's calendar and
/// monthly totals show the last year and the last 24 months of practice and say so, on every store.
@Suite("stillpoint report of a history that ended years ago", .serialized)
struct EndedHistoryReportTests {
    static let stores = ["sqlite"] + (PostgresTestServer.isWanted ? ["postgresql"] : [])

    @Test(arguments: stores)
    func theCalendarAndMonthlyTotalsShowTheLastYearsOfPractice(store kind: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = kind == "sqlite" ? tool.path("ended.sqlite") : try PostgresTestServer.shared().makeDatabase("ended")
        let demo = try await tool.run(["demo", "--sessions", "1500", "--years", "4", "--ending-at", "2021-05-31T20:00:00Z", "--store", store])
        #expect(demo.status == 0, "\(demo.standardError)")
        let report = try await tool.run(["report", "--store", store, "--format", "html", "--as-of", ReportCommandTests.asOf])
        #expect(report.status == 0, "\(report.standardError)")
        let html = report.standardOutput

        #expect(!html.contains("No practice in the last 52 weeks yet"), "\(html)")
        #expect(html.contains("aria-label=\"Active days over the 52 weeks up to the last session, "), "\(html)")
        #expect(html.contains("<p>No practice in the last 52 weeks; "), "\(html)")
        #expect(html.contains("<p>No practice in the latest 24 months; the 24 months up to the last with practice, 2021-05</p>"),
                "\(html)")
        // Bars with their time, on an axis in hours: no empty chart, no `1m` scale.
        let monthly = try #require(html.range(of: "aria-label=\"Monthly totals\"").map { String(html[$0.lowerBound...]) })
        #expect(!monthly.contains(">1m</text>"), "\(monthly)")
        #expect(monthly.contains("<title>2019-06: ") && monthly.contains("<title>2021-05: "), "\(monthly)")
    }
}
