import Foundation
import Testing
@testable import PracticeLog

@Suite("LocalDay")
struct LocalDayTests {
    /// Day numbers checked against Python's `datetime.date` (proleptic Gregorian).
    @Test(arguments: [
        ("1970-01-01", 0), ("1969-12-31", -1), ("2000-03-01", 11017), ("2024-02-29", 19782),
        ("2024-03-15", 19797), ("1600-01-01", -135_140), ("0001-01-01", -719_162), ("9999-12-31", 2_932_896),
    ])
    func dayNumberOfKnownDates(text: String, dayNumber: Int) throws {
        let day = try #require(LocalDay(text))
        #expect(day.dayNumber == dayNumber)
        #expect(LocalDay(dayNumber: dayNumber) == day)
        #expect(LocalDay(dayNumber: dayNumber).description == text)
    }

    @Test func dayNumberRoundTripsThroughYearMonthDay() throws {
        // Every day of 1895...2105 and a sparse sweep over ±2,000 years: the two conversions are inverses.
        let days = Array(-27_000...49_000) + Array(stride(from: -1_500_000, through: 1_500_000, by: 997))
        var previous: LocalDay?
        for number in days {
            let day = LocalDay(dayNumber: number)
            let rebuilt = try #require(LocalDay(year: day.year, month: day.month, day: day.day))
            #expect(rebuilt.dayNumber == number)
            if let previous, previous.dayNumber == number - 1 {
                // Consecutive numbers are consecutive dates: the day increments or rolls over to the 1st.
                #expect(day.day == previous.day + 1 || day.day == 1)
            }
            previous = day
        }
    }

    /// A report service holds a year of days per practitioner in its report values: a day is its number only,
    /// so that a value holding one is not boxed.
    @Test func isItsDayNumberOnly() {
        #expect(MemoryLayout<LocalDay>.size == MemoryLayout<Int>.size)
    }

    @Test func calendarFieldsRoundTripOverEveryDayOfTheTextRange() throws {
        // Every day `yyyy-MM-dd` can write, 0000-01-01 through 9999-12-31: the year, month and day computed from
        // the number give the text, the text parses to the number, and the fields make the number again.
        let first = try #require(LocalDay("0000-01-01")).dayNumber
        let last = try #require(LocalDay("9999-12-31")).dayNumber
        var mismatches: [Int] = []
        var previous = LocalDay(dayNumber: first - 1)
        for number in first...last {
            let day = LocalDay(dayNumber: number)
            let (year, month, dayOfMonth) = (day.year, day.month, day.day)
            let follows = dayOfMonth == previous.day + 1 && month == previous.month && year == previous.year
                || dayOfMonth == 1 && (month == previous.month + 1 && year == previous.year || month == 1 && year == previous.year + 1)
            if LocalDay(year: year, month: month, day: dayOfMonth)?.dayNumber != number || !follows
                || (number % 97 == 0 && LocalDay(day.description)?.dayNumber != number) {
                mismatches.append(number)
            }
            previous = day
        }
        #expect(mismatches.isEmpty, "day numbers whose calendar fields do not round-trip: \(mismatches.prefix(5))")
        #expect(LocalDay(dayNumber: last).description == "9999-12-31")
    }

    @Test(arguments: [Int(Int32.min), -1_000_000_000, -1, 0, 1_000_000_000, Int(Int32.max)])
    func calendarFieldsRoundTripAtTheEdgesOfThirtyTwoBitDayNumbers(number: Int) throws {
        // The digest holds day numbers in 32 bits; a damaged row's start can reach their ends.
        let day = LocalDay(dayNumber: number)
        #expect(LocalDay(year: day.year, month: day.month, day: day.day)?.dayNumber == number)
        #expect(day.startOfMonth.day == 1 && day.startOfMonth.month == day.month && day.startOfMonth.year == day.year)
        #expect(day.startOfQuarter.month == (day.month - 1) / 3 * 3 + 1 && day.startOfYear.dayNumber <= number)
    }

    @Test func agreesWithFoundationsGregorianCalendar() throws {
        // Foundation switches to the Julian calendar before 1582, so compare from 1600 on.
        var calendar = Foundation.Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for number in stride(from: -135_140, through: 60_000, by: 13) {
            let date = Date(timeIntervalSince1970: TimeInterval(number) * 86_400)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            let day = LocalDay(dayNumber: number)
            #expect(day.year == parts.year && day.month == parts.month && day.day == parts.day)
            // Foundation numbers weekdays from 1 = Sunday.
            #expect(day.weekday.isoNumber == (parts.weekday! + 5) % 7 + 1)
        }
    }

    @Test(arguments: [
        (2023, 2, 29), (2100, 2, 29), (1900, 2, 29), (2024, 4, 31), (2024, 13, 1), (2024, 0, 10),
        (2024, 1, 0), (2024, 1, 32),
    ])
    func rejectsDatesThatDoNotExist(year: Int, month: Int, day: Int) {
        #expect(LocalDay(year: year, month: month, day: day) == nil)
    }

    @Test func acceptsLeapDays() throws {
        #expect(LocalDay(year: 2000, month: 2, day: 29) != nil)
        #expect(LocalDay(year: 2024, month: 2, day: 29) != nil)
        let day = try #require(LocalDay(year: 2024, month: 12, day: 31))
        #expect(day.description == "2024-12-31")
    }

    @Test(arguments: [
        "2024-3-15", "2024-03-5", "24-03-15", "2024/03/15", "2024-03-15T00:00", " 2024-03-15", "", "abcd-ef-gh",
        "2024-02-30", "2024-00-10", "+024-03-15", "-024-03-15", "２０２４-03-15",
    ])
    func rejectsMalformedText(text: String) {
        #expect(LocalDay(text) == nil)
    }

    @Test func describesAsPaddedISODate() throws {
        #expect(try #require(LocalDay(year: 5, month: 1, day: 2)).description == "0005-01-02")
        #expect(try #require(LocalDay(year: 2026, month: 5, day: 18)).description == "2026-05-18")
        #expect(LocalDay("0005-01-02")?.year == 5)
        #expect(LocalDay(dayNumber: -719_163).description == "0000-12-31")
    }

    @Test(arguments: [
        ("2024-02-28", 1, "2024-02-29"), ("2023-02-28", 1, "2023-03-01"), ("2025-12-31", 1, "2026-01-01"),
        ("2024-03-15", -30, "2024-02-14"), ("2024-03-15", 0, "2024-03-15"), ("1970-01-01", -1, "1969-12-31"),
        ("2024-03-15", 366, "2025-03-16"),
    ])
    func addsDaysAcrossMonthsYearsAndLeapDays(start: String, days: Int, expected: String) throws {
        let day = try #require(LocalDay(start))
        #expect(day.adding(days: days).description == expected)
        #expect(day.distance(to: day.adding(days: days)) == days)
    }

    @Test(arguments: [
        ("1970-01-01", Weekday.thursday), ("1969-12-31", .wednesday), ("2000-01-01", .saturday),
        ("2024-02-29", .thursday), ("2024-03-15", .friday), ("2024-03-17", .sunday), ("2024-03-18", .monday),
    ])
    func weekday(text: String, expected: Weekday) throws {
        #expect(try #require(LocalDay(text)).weekday == expected)
    }

    @Test(arguments: [
        // 2024-03-15 is a Friday, 03-17 a Sunday, 03-11 a Monday.
        ("2024-03-15", Weekday.monday, "2024-03-11"), ("2024-03-15", .sunday, "2024-03-10"),
        ("2024-03-15", .saturday, "2024-03-09"), ("2024-03-15", .friday, "2024-03-15"),
        ("2024-03-17", .monday, "2024-03-11"), ("2024-03-17", .sunday, "2024-03-17"),
        ("2024-03-11", .monday, "2024-03-11"), ("2024-01-01", .sunday, "2023-12-31"),
    ])
    func startOfWeek(text: String, firstWeekday: Weekday, expected: String) throws {
        let start = try #require(LocalDay(text)).startOfWeek(startingOn: firstWeekday)
        #expect(start.description == expected)
        #expect(start.weekday == firstWeekday)
    }

    @Test(arguments: [
        ("2024-01-01", 1, "2024-01-01", "2024-01-01"), ("2024-02-29", 1, "2024-02-01", "2024-01-01"),
        ("2024-03-31", 1, "2024-03-01", "2024-01-01"), ("2024-04-01", 2, "2024-04-01", "2024-04-01"),
        ("2024-08-15", 3, "2024-08-01", "2024-07-01"), ("2024-12-31", 4, "2024-12-01", "2024-10-01"),
    ])
    func monthQuarterAndYear(text: String, quarter: Int, month: String, quarterStart: String) throws {
        let day = try #require(LocalDay(text))
        #expect(day.quarter == quarter)
        #expect(day.startOfMonth.description == month)
        #expect(day.startOfQuarter.description == quarterStart)
        #expect(day.startOfYear.description == "2024-01-01")
    }

    @Test func ordersHashesAndStridesByDay() throws {
        let first = try #require(LocalDay("2024-02-27"))
        let last = try #require(LocalDay("2024-03-02"))
        #expect(first < last)
        #expect(!(last < first))
        #expect((first...last).map(\.description)
                == ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02"])
        #expect(Set([first, last, LocalDay(dayNumber: first.dayNumber)]).count == 2)
    }

    @Test func codesAsISOText() throws {
        let day = try #require(LocalDay("2024-03-15"))
        let data = try JSONEncoder().encode([day])
        #expect(String(decoding: data, as: UTF8.self) == #"["2024-03-15"]"#)
        #expect(try JSONDecoder().decode([LocalDay].self, from: data) == [day])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([LocalDay].self, from: Data(#"["2024-02-30"]"#.utf8))
        }
    }
}

@Suite("Weekday")
struct WeekdayTests {
    @Test func namesAndOrder() {
        #expect(Weekday.allCases.map(\.rawValue)
                == ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
        #expect(Weekday.allCases.map(\.isoNumber) == Array(1...7))
        #expect(Weekday.monday < .sunday)
        #expect(Weekday.allCases.sorted(by: >).first == .sunday)
        #expect(Weekday(rawValue: "Sunday") == nil)
    }

    @Test func weekStartingOnAnyDay() {
        #expect(Weekday.week(startingOn: .monday) == Weekday.allCases)
        #expect(Weekday.week(startingOn: .sunday)
                == [.sunday, .monday, .tuesday, .wednesday, .thursday, .friday, .saturday])
        #expect(Weekday.week(startingOn: .saturday).prefix(2) == [.saturday, .sunday])
    }
}
