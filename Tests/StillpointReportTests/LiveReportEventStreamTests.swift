import Foundation
import StillpointManifest
import StillpointReport
import Testing

/// A held report as served (LiveReport+EventStream): the stale field in JSON only, and one server-sent event a report.
@Suite("live report as served")
struct LiveReportEventStreamTests {
    static let json = JSONReportRenderer().render(SampleReports.fixed)

    static func live(_ body: String, format: ReportFormat = .json, stale: Bool) -> LiveReport {
        LiveReport(practitioner: "alice", manifest: "default", format: format, generation: 7, body: body,
                   asOf: SampleReports.asOf, isStale: stale)
    }

    @Test func aStaleJSONReportSaysSoInAFieldAndIsStillJSON() throws {
        let stale = Self.live(Self.json, stale: true).servedBody
        #expect(stale.hasPrefix("{\n  \"stale\": true,\n  \"as_of\""))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(stale.utf8)) as? [String: Any])
        #expect(document["stale"] as? Bool == true)
        let fresh = try #require(try JSONSerialization.jsonObject(with: Data(Self.json.utf8)) as? [String: Any])
        #expect(document.count == fresh.count + 1)
        // Fresh, or another format: the bytes as rendered.
        #expect(Self.live(Self.json, stale: false).servedBody == Self.json)
        #expect(Self.live("a,b\n", format: .csv, stale: true).servedBody == "a,b\n")
    }

    @Test func aReportIsOneEventWithItsGenerationAsID() {
        let event = Self.live("{\n  \"a\": 1\n}\n", stale: false).serverSentEvent
        #expect(event == "id: 7\ndata: {\ndata:   \"a\": 1\ndata: }\n\n")
        let stale = Self.live("{\n  \"a\": 1\n}\n", stale: true).serverSentEvent
        #expect(stale == "id: 7\ndata: {\ndata:   \"stale\": true,\ndata:   \"a\": 1\ndata: }\n\n")
    }
}
