import StillpointTestSupport
import PracticeLog
import Testing
@testable import TrendStatistics

@Suite("TrendPeriod")
struct TrendPeriodTests {
    @Test(arguments: [
        (TrendPeriod.month, "2024-03-15", "2024-03", "2024-03-01", "2024-04-01"),
        (.month, "2024-12-31", "2024-12", "2024-12-01", "2025-01-01"),
        (.month, "2024-02-29", "2024-02", "2024-02-01", "2024-03-01"),
        (.quarter, "2024-05-20", "2024-Q2", "2024-04-01", "2024-07-01"),
        (.quarter, "2023-12-31", "2023-Q4", "2023-10-01", "2024-01-01"),
        (.year, "2024-12-31", "2024", "2024-01-01", "2025-01-01"),
        (.year, "2023-01-01", "2023", "2023-01-01", "2024-01-01"),
    ])
    func keysStartsAndNext(period: TrendPeriod, day: String, key: String, start: String, next: String) throws {
        let day = try #require(LocalDay(day))
        #expect(period.key(of: day) == key)
        #expect(period.start(of: day).description == start)
        #expect(period.next(after: period.start(of: day)).description == next)
    }

    /// Every month from 1999 to 2031 follows the one before, so no period is skipped or repeated.
    @Test func consecutivePeriodsAreContiguous() throws {
        var month = try #require(LocalDay("1999-01-01"))
        for _ in 0..<(33 * 12) {
            let next = TrendPeriod.month.next(after: month)
            #expect(next.month == month.month % 12 + 1)
            #expect(next.day == 1)
            month = next
        }
    }
}
