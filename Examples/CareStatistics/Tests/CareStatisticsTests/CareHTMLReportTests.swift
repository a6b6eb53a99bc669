import CareStatistics
import Foundation
import StillpointCatalog
import StillpointManifest
import StillpointReport
import StillpointStatistics
import StillpointTestSupport
import Testing

/// A statistic of this module gets a chart in the HTML report from its presentation: the reporters know nothing
/// of it.
@Suite("Care statistics in the HTML report")
struct CareHTMLReportTests {
    @Test func weeklyTimeIsDrawnAsBarsPerWeek() async throws {
        let container = try await StatisticExample.store(holding: [
            ExampleSession("2024-03-05T07:00:00Z", minutes: 20), ExampleSession("2024-03-12T07:00:00Z", minutes: 40),
        ])
        var modules = ModuleCatalog(BuiltInStatistics.modules)
        modules.add([CareStatisticsModule.self], origin: .addedBy("care-stillpoint"))
        let manifest = try Manifest(yaml: """
            version: 1
            time_zone: UTC
            as_of: 2024-03-15T12:00:00Z
            modules: [CareStatistics]
            statistics:
              - {id: weekly_time, parameters: {weeks: 4}}
            """)
        let report = await ReportRunner(container: container).run(try manifest.prepare(modules: modules),
                                                                  environment: manifest.environment)
        let html = HTMLReportRenderer().render(report)
        #expect(html.contains("Weekly totals"))
        // A bar per week, titled with the week's first day.
        for week in ["2024-02-26", "2024-03-04", "2024-03-11"] {
            #expect(html.contains("<title>\(week):"), "no bar for \(week)")
        }
    }
}
