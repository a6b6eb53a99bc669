import Foundation
import Testing
@testable import PracticeLog

@Suite("Import limits")
struct ImportLimitsTests {
    static let now = ImportFixtures.instant("2026-01-01T00:00:00Z")
    static let start = ImportFixtures.instant("2024-03-05T07:30:00Z")

    @Test("a duration is finite, positive and at most 7 days")
    func durations() {
        #expect(ImportLimits.maxDuration == 604_800)
        #expect(ImportLimits.problem(start: Self.start, duration: 1, now: Self.now) == nil)
        #expect(ImportLimits.problem(start: Self.start, duration: 604_800, now: Self.now) == nil)
        #expect(ImportLimits.problem(start: Self.start, duration: 604_800.5, now: Self.now)
            == "duration 604800.5 s is longer than 7 days (604800 s), the longest session imported")
        #expect(ImportLimits.problem(start: Self.start, duration: .infinity, now: Self.now)
            == "duration is longer than 7 days (604800 s), the longest session imported")
        #expect(ImportLimits.problem(start: Self.start, duration: .nan, now: Self.now) == "duration is not a number")
        #expect(ImportLimits.problem(start: Self.start, duration: 0, now: Self.now)
            == "duration is 0 s; a session lasts longer than 0 seconds")
        #expect(ImportLimits.problem(start: Self.start, duration: -5, now: Self.now) != nil)
        #expect(ImportLimits.problem(start: Self.start, duration: -.infinity, now: Self.now) != nil)
    }

    @Test("a start lies between 1970-01-01 and one day after now")
    func starts() {
        #expect(ImportLimits.problem(start: ImportLimits.earliestStart, duration: 60, now: Self.now) == nil)
        #expect(ImportLimits.problem(start: Date(timeIntervalSince1970: -1), duration: 60, now: Self.now)
            == "the start lies before 1970-01-01, the earliest start imported")
        #expect(ImportLimits.problem(start: Self.now.addingTimeInterval(86_400), duration: 60, now: Self.now) == nil)
        #expect(ImportLimits.problem(start: Self.now.addingTimeInterval(86_401), duration: 60, now: Self.now)
            == "the start 2026-01-02T00:00:01Z lies more than a day in the future")
        #expect(ImportLimits.problem(start: Date(timeIntervalSince1970: .infinity), duration: 60, now: Self.now) != nil)
    }

    @Test("a record's key is total over any date, so a bad value can't trap before the check")
    func totalKey() {
        let record = SessionRecord(start: Self.start, duration: .infinity, kind: "yoga", source: "csv")
        #expect(record.key == "csv|1709623800|inf")
        let huge = SessionRecord(start: Self.start, duration: 1e19, kind: "yoga", source: "csv")
        #expect(huge.key == "csv|1709623800|1.0000000001709623e+19")
        let nan = SessionRecord(start: Self.start, duration: .nan, kind: "yoga", source: "csv")
        #expect(nan.key.hasPrefix("csv|1709623800|"))
    }
}
