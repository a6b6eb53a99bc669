import Testing
@testable import StillpointReport
import StillpointStatistics

@Suite("Value text")
struct ValueTextTests {
    @Test func writesDurationsAsPeopleDo() {
        #expect(ValueText.duration(0) == "0s")
        #expect(ValueText.duration(45) == "45s")
        #expect(ValueText.duration(725) == "12m 5s")
        #expect(ValueText.duration(900) == "15m")
        #expect(ValueText.duration(4_980) == "1h 23m")
        #expect(ValueText.duration(3_590) == "1h")
        #expect(ValueText.duration(900_000) == "250h")
    }

    @Test func writesUnits() {
        #expect(ValueText.quantity(1, .days) == "1 day")
        #expect(ValueText.quantity(12, .days) == "12 days")
        #expect(ValueText.quantity(2, .weeks) == "2 weeks")
        #expect(ValueText.quantity(86.6, .percent) == "87 %")
        #expect(ValueText.quantity(412, .count) == "412")
    }

    @Test func writesKnownRecordsOnOneLine() {
        #expect(ValueText.inline(SampleReports.tally(1, 5_400)) == "1 session · 1h 30m")
        #expect(ValueText.inline(SampleReports.streak("2024-03-04", "2024-03-08")) == "2024-03-04 – 2024-03-08 · 5 days")
        #expect(ValueText.inline(.none) == "—")
        #expect(ValueText.inline(.list([SampleReports.streak("2024-03-04", "2024-03-08")])) == nil)
        #expect(ValueText.label(forKey: "7", statistic: "sessions_by_hour") == "07:00")
        #expect(ValueText.label(forKey: "insight_timer") == "Insight timer")
    }
}
