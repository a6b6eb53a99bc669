import Foundation
import Testing
@testable import StillpointReport
import StillpointStatistics

@Suite("JSON report")
struct JSONReportRendererTests {
    @Test func matchesGolden() throws {
        try Golden.check(JSONReportRenderer().render(SampleReports.fixed), against: "report.json")
    }

    @Test func isValidJSONWithTheDocumentedTopLevelKeys() throws {
        let data = Data(JSONReportRenderer().render(SampleReports.fixed).utf8)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(Set(document.keys) == ["as_of", "time_zone", "statistics"])
        #expect(document["as_of"] as? String == "2024-03-15T13:00:00+01:00")
        #expect(document["time_zone"] as? String == "Europe/Berlin")
        let statistics = try #require(document["statistics"] as? [[String: Any]])
        #expect(statistics.map { $0["name"] as? String } == SampleReports.fixed.entries.map(\.name))
    }

    @Test func noValueIsNullAndHasNoUnit() {
        let json = render(.none)
        #expect(json.contains("\"value\": null,\n      \"unit\": null"))
    }

    @Test func wholeUnitsAreIntegersAndSecondsKeepTheirFraction() {
        #expect(render(.quantity(12, .days)).contains("\"value\": 12,"))
        #expect(render(.quantity(86.6, .percent)).contains("\"value\": 87,"))
        #expect(render(.quantity(412, .count)).contains("\"value\": 412,"))
        #expect(render(.quantity(5_400, .seconds)).contains("\"value\": 5400,"))
        #expect(render(.quantity(902.5, .seconds)).contains("\"value\": 902.5,"))
        #expect(render(.quantity(902.5, .seconds)).contains("\"unit\": \"seconds\""))
        #expect(render(.quantity(2_180.3427895981085, .seconds)).contains("\"value\": 2180.343,"))
    }

    @Test func recordsKeepFieldOrderAndDaysAreDates() throws {
        let json = render(.record([
            StatisticField("sunday", SampleReports.tally(1, 60)),
            StatisticField("monday", SampleReports.tally(3, 5_400)),
        ]))
        let sunday = try #require(json.range(of: "\"sunday\""))
        let monday = try #require(json.range(of: "\"monday\""))
        #expect(sunday.lowerBound < monday.lowerBound)
        #expect(json.contains("\"monday\": {\n          \"count\": 3,\n          \"time\": 5400\n        }"))
        #expect(render(.day(SampleReports.day("2024-03-15"))).contains("\"value\": \"2024-03-15\""))
        #expect(render(.list([])).contains("\"value\": [],"))
    }

    @Test func entryKeysComeInTheDocumentedOrder() {
        let json = render(.quantity(3, .count))
        let keys = ["\"id\"", "\"name\"", "\"status\"", "\"value\"", "\"unit\"", "\"notes\""].map { json.range(of: $0)!.lowerBound }
        #expect(keys == keys.sorted())
    }

    @Test func failedEntriesCarryTheirErrorAndCancelledOnesNoValue() throws {
        let report = Report(asOf: SampleReports.asOf, timeZone: .gmt, entries: [
            ReportEntry(id: "total_time", name: "time", title: "Total time", outcome: .failed(message: "disk \"full\"")),
            SampleReports.entry("session_count", "Sessions", .cancelled),
            SampleReports.entry("active_days", "Active days", .running(progress: 0.5)),
        ])
        let json = JSONReportRenderer().render(report)
        #expect(json.contains("\"status\": \"failed\",\n      \"error\": \"disk \\\"full\\\"\",\n      \"value\": null,"))
        let statistics = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])["statistics"] as? [[String: Any]]
        #expect(statistics?.map { $0["status"] as? String } == ["failed", "cancelled", "cancelled"])
        #expect(statistics?[1]["error"] == nil)
        #expect(json.contains("\"as_of\": \"2024-03-15T12:00:00Z\""))
    }

    /// The JSON of a one-entry report with `value`.
    private func render(_ value: StatisticValue) -> String {
        JSONReportRenderer().render(Report(asOf: SampleReports.asOf, timeZone: .gmt, entries: [
            SampleReports.finished("statistic", "Statistic", value),
        ]))
    }
}
