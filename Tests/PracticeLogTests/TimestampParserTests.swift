import Foundation
import Testing
@testable import PracticeLog

@Suite("Timestamp parser")
struct TimestampParserTests {
    @Test("offsets up to ±14:00 are read; beyond, the date is refused and the offset named")
    func offsetLimit() {
        #expect(TimestampParser.iso8601("2024-03-05T07:30:00+14:00", zone: nil) == ImportFixtures.instant("2024-03-04T17:30:00Z"))
        #expect(TimestampParser.iso8601("2024-03-05T07:30:00-12:00", zone: nil) == ImportFixtures.instant("2024-03-05T19:30:00Z"))
        #expect(TimestampParser.iso8601("2024-03-05T07:30:00+19:00", zone: nil) == nil)
        #expect(TimestampParser.iso8601("2024-03-05T07:30:00-1430", zone: nil) == nil)
        #expect(TimestampParser.appleHealth("2024-03-05 07:30:00 +1800") == nil)
        #expect(TimestampParser.offsetBeyondLimit(in: "2024-03-05T07:30:00+19:00") == "+19:00")
        #expect(TimestampParser.offsetBeyondLimit(in: "2024-03-05 07:30:00 -1430") == "-1430")
        #expect(TimestampParser.offsetBeyondLimit(in: "2024-03-05T07:30:00+02:00") == nil)
        #expect(TimestampParser.offsetBeyondLimit(in: "2024-03-15") == nil)   // the date's own dashes
        #expect(TimestampParser.offsetBeyondLimit(in: "not a date") == nil)
    }

    @Test("a date-time keeps the offset it was written with")
    func stamps() {
        #expect(TimestampParser.iso8601Stamp("2024-03-05T07:30:00+02:00", zone: nil)?.offset == 7_200)
        #expect(TimestampParser.iso8601Stamp("2024-03-05T07:30:00Z", zone: nil)?.offset == 0)
        #expect(TimestampParser.iso8601Stamp("2024-03-05 07:30", zone: nil)?.offset == nil)
        #expect(TimestampParser.appleHealthStamp("2019-04-10 08:10:34 -0500")?.offset == -18_000)
        #expect(TimestampParser.zoneIdentifier(offset: 7_200) == "GMT+0200")
        #expect(TimestampParser.zoneIdentifier(offset: -19_800) == "GMT-0530")
        #expect(TimeZone(identifier: TimestampParser.zoneIdentifier(offset: -19_800) ?? "")?.secondsFromGMT() == -19_800)
    }

    @Test("yyyy-MM-dd HH:mm:ss, with an optional fraction, and nothing else")
    func dateTime() {
        #expect(TimestampParser.dateTime("2024-03-05 07:30:00", zone: nil) == ImportFixtures.instant("2024-03-05T07:30:00Z"))
        #expect(TimestampParser.dateTime("2024-03-05 07:30:00.5", zone: nil)?.timeIntervalSince1970 == 1_709_623_800.5)
        #expect(TimestampParser.dateTime("2024-03-05T07:30:00", zone: nil) == nil)
        #expect(TimestampParser.dateTime("2024-03-05 07:30", zone: nil) == nil)
        #expect(TimestampParser.dateTime("2024-02-30 07:30:00", zone: nil) == nil)
    }
}
