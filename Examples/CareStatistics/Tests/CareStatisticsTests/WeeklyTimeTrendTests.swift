import StillpointStatistics
import StillpointTestSupport
import Testing
@testable import CareStatistics

@Suite("WeeklyTimeTrend")
struct WeeklyTimeTrendTests {
    @Test func theSlopeIsTheChangePerWeek() {
        #expect(WeeklyTimeTrend.slope([0, 600, 1_200, 1_800]) == 600)
        #expect(WeeklyTimeTrend.slope([1_800, 1_800, 1_800]) == 0)
        #expect(WeeklyTimeTrend.slope([3_600, 0]) == -3_600)
        // Noise around a rise: the least-squares line, not the last minus the first.
        #expect(WeeklyTimeTrend.slope([0, 1_200, 600, 1_800]) == 480)
    }

    @Test func twelveWeeksByDefault() async throws {
        let result = try await run(WeeklyTimeTrend(), [session("2024-03-04T07:00:00Z", minutes: 30)], ["time_zone": "UTC"])
        guard case .record(let weeks)? = result.value["weeks"] else {
            Issue.record("no weeks in \(result.value)")
            return
        }
        #expect(weeks.count == 12)
        #expect(weeks.first?.key == "2023-12-18" && weeks.last?.key == "2024-03-04")
        #expect(weeks.last?.value == .quantity(1_800, .seconds))
    }
}
