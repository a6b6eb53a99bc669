import StillpointTestSupport
import Foundation
import StillpointStatistics
import Testing
@testable import SessionTimeStatistics

@Suite("DurationLimit")
struct DurationLimitTests {
    @Test func readsItsParameters() throws {
        let none = try DurationLimit(StatisticParameters(statistic: "t"))
        #expect(none == nil)
        let capped = try DurationLimit(StatisticParameters(statistic: "t", values: ["maximum_duration": "4h"]))
        #expect(capped == DurationLimit(maximum: 14_400, handling: .cap))
        let dropped = try DurationLimit(StatisticParameters(statistic: "t", values: ["maximum_duration": 600, "outliers": "DROP"]))
        #expect(dropped == DurationLimit(maximum: 600, handling: .drop))
    }

    @Test func outliersWithoutMaximumSaysWhatToAdd() throws {
        let error = #expect(throws: ParameterError.self) {
            try DurationLimit(StatisticParameters(statistic: "average_session_time", values: ["outliers": "cap"]))
        }
        #expect(error?.parameter == "outliers")
        #expect(error?.message.contains("maximum_duration") == true)
    }

    @Test(arguments: [
        (OutlierHandling.cap, 0, "no session was longer than 4 h, so none was capped"),
        (.cap, 3, "3 sessions longer than 4 h were capped at 4 h"),
        (.flag, 1, "1 session longer than 4 h was counted in full but flagged as an outlier"),
        (.flag, 2, "2 sessions longer than 4 h were counted in full but flagged as outliers"),
        (.flag, 0, "no session was longer than 4 h, so none was flagged"),
        (.drop, 2, "2 sessions longer than 4 h were left out"),
        (.drop, 0, "no session was longer than 4 h, so none was left out"),
    ])
    func notes(handling: OutlierHandling, count: Int, expected: String) {
        #expect(DurationLimit(maximum: 14_400, handling: handling).note(outlierCount: count) == expected)
    }

    @Test(arguments: [
        (0.0, "0 s"), (1, "1 s"), (90, "1 min 30 s"), (2_700, "45 min"), (5_400, "1 h 30 min"), (14_400, "4 h"),
        (313_200, "87 h"), (3_661, "1 h 1 min 1 s"),
    ])
    func durationText(seconds: TimeInterval, expected: String) {
        #expect(DurationText.describe(seconds) == expected)
    }
}
