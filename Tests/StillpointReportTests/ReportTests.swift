import Foundation
import Testing
@testable import StillpointReport
import StillpointStatistics

@Suite("Report")
struct ReportTests {
    @Test func succeedsOnlyWhenEveryEntryFinished() {
        let finished = SampleReports.entry("session_count", "Sessions", .finished(StatisticResult(.quantity(3, .count))))
        let failed = SampleReports.entry("total_time", "Total time", .failed(message: "boom"))
        let utc = TimeZone(identifier: "UTC")!
        #expect(Report(asOf: Date(), timeZone: utc, entries: [finished]).succeeded)
        #expect(!Report(asOf: Date(), timeZone: utc, entries: [finished, failed]).succeeded)
        #expect(Report(asOf: Date(), timeZone: utc, entries: [finished, failed]).value(of: "session_count") == .quantity(3, .count))
    }
}
