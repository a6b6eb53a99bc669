import Foundation
import Testing
@testable import StillpointReport
import StillpointStatistics

@Suite("Text report")
struct TextReportRendererTests {
    @Test func matchesGolden() throws {
        try Golden.check(TextReportRenderer().render(SampleReports.fixed), against: "report.txt")
    }

    @Test func writesHumanUnits() {
        let text = TextReportRenderer().render(SampleReports.fixed)
        #expect(text.contains("Total time"))
        #expect(text.contains("103h 20m"))
        #expect(text.contains("120 days"))
        #expect(text.contains("87 %"))
        #expect(text.contains("  Monday"))
        #expect(text.contains("failed: could not read \"sessions\", the store is locked"))
    }

    @Test func usesTheAsNameWhenTheManifestGaveOne() {
        let text = TextReportRenderer().render(SampleReports.fixed)
        #expect(text.contains("days_since_last_yoga"))
        #expect(!text.contains("Days since last session"))
    }
}
