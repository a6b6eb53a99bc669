import Foundation
import Testing
@testable import PracticeLog

/// An instant written in ISO 8601 with its UTC offset, e.g. `2023-03-12T01:30:00-05:00`.
private func instant(_ iso: String) throws -> Date {
    try Date(iso, strategy: .iso8601)
}

/// The instant a wall clock in `zone` shows `text` (`yyyy-MM-dd HH:mm[:ss]`), computed by Foundation.
private func instant(local text: String, in zone: TimeZone) throws -> Date {
    let numbers = text.split(whereSeparator: { "- :".contains($0) }).compactMap { Int($0) }
    try #require(numbers.count == 5 || numbers.count == 6)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let parts = DateComponents(year: numbers[0], month: numbers[1], day: numbers[2],
                               hour: numbers[3], minute: numbers[4], second: numbers.count == 6 ? numbers[5] : 0)
    return try #require(calendar.date(from: parts))
}

private func zone(_ identifier: String) throws -> TimeZone {
    try #require(TimeZone(identifier: identifier))
}

private let hour: TimeInterval = 3600

@Suite("DayBoundary")
struct DayBoundaryTests {
    /// The day-boundary table of docs/statistics.md, in several zones: only the local time matters.
    @Test(arguments: [
        (0.0, "2026-05-18 23:59", "2026-05-18"),
        (0, "2026-05-19 00:00", "2026-05-19"),
        (4, "2026-05-18 03:59:59", "2026-05-17"),
        (4, "2026-05-18 04:00", "2026-05-18"),
        (-2, "2026-05-18 21:59", "2026-05-18"),
        (-2, "2026-05-18 22:00", "2026-05-19"),
        (4, "2024-03-01 02:00", "2024-02-29"),
        (-2, "2025-12-31 23:00", "2026-01-01"),
    ], ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
    func dayBoundaryTable(row: (offsetHours: Double, local: String, day: String), zoneID: String) throws {
        let boundary = DayBoundary(timeZone: try zone(zoneID), dayStartsAt: row.offsetHours * hour)
        let start = try instant(local: row.local, in: boundary.timeZone)
        #expect(boundary.day(of: start).description == row.day)
    }

    @Test func defaultsToMidnight() throws {
        let boundary = DayBoundary(timeZone: try zone("UTC"))
        #expect(boundary.dayStartsAt == 0)
        #expect(boundary.day(of: try instant("2026-05-18T23:59:59Z")).description == "2026-05-18")
        #expect(boundary.day(of: try instant("2026-05-19T00:00:00Z")).description == "2026-05-19")
    }

    @Test func instantsBefore1970RoundDown() throws {
        let boundary = DayBoundary(timeZone: try zone("UTC"))
        #expect(boundary.day(of: try instant("1969-12-31T23:59:59Z")).description == "1969-12-31")
        #expect(boundary.day(of: try instant("1969-12-31T00:00:00Z")).description == "1969-12-31")
        #expect(boundary.localHour(of: try instant("1969-12-31T23:30:00Z")) == 23)
        #expect(boundary.localHour(of: Date(timeIntervalSince1970: -0.5)) == 23)
    }

    @Test func springForwardInNewYorkKeepsOneDay() throws {
        // 2023-03-12: clocks jump from 02:00 EST to 03:00 EDT, a 23-hour day.
        let boundary = DayBoundary(timeZone: try zone("America/New_York"))
        let before = try instant("2023-03-12T01:30:00-05:00")
        let after = try instant("2023-03-12T03:30:00-04:00")
        #expect(after.timeIntervalSince(before) == hour)
        #expect(boundary.day(of: before).description == "2023-03-12")
        #expect(boundary.day(of: after).description == "2023-03-12")
        #expect(boundary.localHour(of: before) == 1)
        #expect(boundary.localHour(of: after) == 3)
        // The 23-hour day still ends at midnight: 23:59 EDT is the 12th, 00:00 EDT the 13th.
        #expect(boundary.day(of: try instant("2023-03-12T23:59:00-04:00")).description == "2023-03-12")
        #expect(boundary.day(of: try instant("2023-03-13T00:00:00-04:00")).description == "2023-03-13")
    }

    @Test func fallBackInNewYorkKeepsOneDay() throws {
        // 2023-11-05: 01:00-02:00 happens twice, a 25-hour day.
        let boundary = DayBoundary(timeZone: try zone("America/New_York"))
        let starts = try ["2023-11-05T01:30:00-04:00", "2023-11-05T01:30:00-05:00", "2023-11-05T02:30:00-05:00"]
            .map(instant)
        #expect(Set(starts).count == 3)
        #expect(starts.map { boundary.day(of: $0).description } == Array(repeating: "2023-11-05", count: 3))
        #expect(starts.map { boundary.localHour(of: $0) } == [1, 1, 2])
        #expect(boundary.day(of: try instant("2023-11-05T23:59:00-05:00")).description == "2023-11-05")
        #expect(boundary.day(of: try instant("2023-11-04T23:59:00-04:00")).description == "2023-11-04")
    }

    /// The boundary stays at 04:00 on the wall clock on the nights the clocks change.
    @Test(arguments: [
        ("2023-03-12T03:59:00-04:00", "2023-03-11"), ("2023-03-12T04:00:00-04:00", "2023-03-12"),
        ("2023-03-12T04:30:00-04:00", "2023-03-12"), ("2023-11-05T03:30:00-05:00", "2023-11-04"),
        ("2023-11-05T03:59:59-05:00", "2023-11-04"), ("2023-11-05T04:00:00-05:00", "2023-11-05"),
    ])
    func dayStartsAtTheSameWallClockTimeAcrossClockChanges(iso: String, expected: String) throws {
        let boundary = DayBoundary(timeZone: try zone("America/New_York"), dayStartsAt: 4 * hour)
        #expect(boundary.day(of: try instant(iso)).description == expected)
    }

    @Test func sessionZoneOverridesReportZone() throws {
        // One instant, 2023-06-02 03:00 UTC: 23:00 on 06-01 in New York, 04:00 on 06-02 in London.
        let boundary = DayBoundary(timeZone: try zone("Asia/Tokyo"))
        let newYork = try instant(local: "2023-06-01 23:00", in: try zone("America/New_York"))
        let london = try instant(local: "2023-06-02 04:00", in: try zone("Europe/London"))
        #expect(newYork == london)
        #expect(boundary.day(of: newYork, timeZone: try zone("America/New_York")).description == "2023-06-01")
        #expect(boundary.day(of: london, timeZone: try zone("Europe/London")).description == "2023-06-02")
        #expect(boundary.localHour(of: newYork, timeZone: try zone("America/New_York")) == 23)
        #expect(boundary.localHour(of: london, timeZone: try zone("Europe/London")) == 4)
        // Without a session zone the report's zone decides: 12:00 in Tokyo.
        #expect(boundary.day(of: newYork).description == "2023-06-02")
        #expect(boundary.localHour(of: newYork) == 12)
    }

    @Test func fallBackInBerlin() throws {
        // 2025-10-26: clocks go back from 03:00 CEST to 02:00 CET; sessions at 20:00 each evening.
        let boundary = DayBoundary(timeZone: try zone("Europe/Berlin"))
        let starts = try ["2025-10-25T20:00:00+02:00", "2025-10-26T20:00:00+01:00",
                          "2025-10-27T20:00:00+01:00", "2025-10-28T20:00:00+01:00"].map(instant)
        #expect(starts.map { boundary.day(of: $0).description }
                == ["2025-10-25", "2025-10-26", "2025-10-27", "2025-10-28"])
        #expect(starts.allSatisfy { boundary.localHour(of: $0) == 20 })
    }

    @Test func localHourIgnoresDayStartAndHandlesHalfHourZones() throws {
        let kolkata = DayBoundary(timeZone: try zone("Asia/Kolkata"), dayStartsAt: 4 * hour)
        // 2024-03-15 00:00 UTC is 05:30 in Kolkata (UTC+05:30).
        #expect(kolkata.localHour(of: try instant("2024-03-15T00:00:00Z")) == 5)
        // 22:29 UTC is 03:59 the next morning: hour 3, and before the 04:00 day start.
        let lateNight = try instant("2024-03-14T22:29:00Z")
        #expect(kolkata.localHour(of: lateNight) == 3)
        #expect(kolkata.day(of: lateNight).description == "2024-03-14")
        let utc = DayBoundary(timeZone: try zone("UTC"), dayStartsAt: -2 * hour)
        #expect(utc.localHour(of: try instant("2024-03-15T23:59:59Z")) == 23)
        #expect(utc.localHour(of: try instant("2024-03-15T00:00:00Z")) == 0)
    }

    @Test func weekdayFollowsTheDayBoundary() throws {
        // 2024-03-18 is a Monday; at 01:00 with days starting at 04:00 it still counts as Sunday.
        let early = try instant("2024-03-18T01:00:00Z")
        #expect(DayBoundary(timeZone: try zone("UTC")).weekday(of: early) == .monday)
        #expect(DayBoundary(timeZone: try zone("UTC"), dayStartsAt: 4 * hour).weekday(of: early) == .sunday)
        #expect(DayBoundary(timeZone: try zone("UTC")).weekday(of: early, timeZone: try zone("America/Denver"))
                == .sunday)
    }

    /// A store may hold starts no session can have, and a boundary may be anything a caller passes: a day
    /// comes back for each, never a trap.
    @Test(arguments: [-Double.infinity, .infinity, .nan, 1e300, -1e300, -62_135_596_800, 253_402_300_799])
    func isTotalOverAnyInstant(seconds: Double) throws {
        let instant = Date(timeIntervalSince1970: seconds)
        for dayStartsAt in [0, 4 * hour, .infinity, .nan, -1e300] {
            let boundary = DayBoundary(timeZone: try zone("Europe/Berlin"), dayStartsAt: dayStartsAt)
            let day = boundary.day(of: instant)
            #expect(abs(day.dayNumber) <= 1_000_000_000)
            #expect((0...23).contains(boundary.localHour(of: instant)))
            _ = boundary.weekday(of: instant)
        }
    }

    @Test func readsYearOneAndYear9999() throws {
        let boundary = DayBoundary(timeZone: .gmt)
        #expect(boundary.day(of: Date(timeIntervalSince1970: -62_135_596_800)).description == "0001-01-01")
        #expect(boundary.day(of: Date(timeIntervalSince1970: 253_402_300_799)).description == "9999-12-31")
    }

    // MARK: The start of a day

    @Test(arguments: [
        ("Europe/Berlin", 4 * hour, "2024-01-01", "2024-01-01 04:00"),
        ("Europe/Berlin", 0, "2024-03-31", "2024-03-31 00:00"),
        // The boundary keeps its wall-clock time on the days the clocks change.
        ("Europe/Berlin", 4 * hour, "2024-03-31", "2024-03-31 04:00"),
        ("America/New_York", 4 * hour, "2023-11-05", "2023-11-05 04:00"),
        ("America/New_York", -2 * hour, "2023-03-13", "2023-03-12 22:00"),
        ("UTC", 0, "1969-12-31", "1969-12-31 00:00"),
    ])
    func startOfADay(zoneName: String, dayStartsAt: TimeInterval, day: String, localStart: String) throws {
        let zone = try zone(zoneName)
        let boundary = DayBoundary(timeZone: zone, dayStartsAt: dayStartsAt)
        let localDay = try #require(LocalDay(day))
        let start = boundary.start(of: localDay)
        #expect(start == (try instant(local: localStart, in: zone)))
        // The day starts at that instant, and the second before it belongs to the day before.
        #expect(boundary.day(of: start) == localDay)
        #expect(boundary.day(of: start.addingTimeInterval(-1)) == localDay.adding(days: -1))
    }
}
