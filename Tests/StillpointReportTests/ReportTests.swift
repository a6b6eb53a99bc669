import Foundation
import Testing
@testable import StillpointReport
import StillpointStatistics

@Suite("Report")
struct ReportTests {
    @Test func succeedsOnlyWhenEveryEntryFinished() {
        let finished = ReportEntry(id: "session_count", name: "session_count", title: "Sessions",
                                   outcome: .finished(StatisticResult(.quantity(3, .count))))
        let failed = ReportEntry(id: "total_time", name: "total_time", title: "Total time", outcome: .failed(message: "boom"))
        let utc = TimeZone(identifier: "UTC")!
        #expect(Report(asOf: Date(), timeZone: utc, entries: [finished]).succeeded)
        #expect(!Report(asOf: Date(), timeZone: utc, entries: [finished, failed]).succeeded)
        #expect(Report(asOf: Date(), timeZone: utc, entries: [finished, failed]).value(of: "session_count") == .quantity(3, .count))
    }
}
