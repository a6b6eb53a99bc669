import Foundation
import Testing
@testable import PracticeLog

@Suite("Wall-clock time rule")
struct WallClockTimeTests {
    @Test("without a zone, the time stays as written and the session carries Etc/UTC")
    func noZone() {
        let wall = ImportFixtures.instant("2024-07-01T07:30:00Z")
        let rule = WallClockTime(zone: nil)
        #expect(rule.start(wallClock: wall) == wall)
        #expect(rule.zoneIdentifier == "Etc/UTC")
        #expect(TimeZone(identifier: rule.zoneIdentifier)?.secondsFromGMT() == 0)
        #expect(rule.rule(format: "Insight Timer")
                == "Insight Timer times carry no zone: read as the wall-clock times you saw (--time-zone Europe/Berlin to give their zone)")
    }

    @Test("with a zone, the time is the instant a clock there showed it, across daylight saving")
    func zone() throws {
        let london = try #require(TimeZone(identifier: "Europe/London"))
        let rule = WallClockTime(zone: london)
        #expect(rule.start(wallClock: ImportFixtures.instant("2024-07-01T07:30:00Z")) == ImportFixtures.instant("2024-07-01T06:30:00Z"))
        #expect(rule.start(wallClock: ImportFixtures.instant("2024-01-01T07:30:00Z")) == ImportFixtures.instant("2024-01-01T07:30:00Z"))
        #expect(rule.zoneIdentifier == "Europe/London")
        #expect(rule.rule(format: "Garmin Connect").contains("in Europe/London"))
    }
}
