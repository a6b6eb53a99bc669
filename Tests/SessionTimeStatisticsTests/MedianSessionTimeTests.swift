import StillpointTestSupport
import Foundation
import StillpointStatistics
import Testing
@testable import SessionTimeStatistics

@Suite("MedianSessionTime")
struct MedianSessionTimeTests {
    let statistic = MedianSessionTime()

    @Test func emptyLogHasNoValue() async throws {
        #expect(try await run(statistic, []).value == .none)
    }

    @Test func oneSessionIsItsOwnMedian() async throws {
        #expect(try await run(statistic, [session("2024-03-14T07:00:00Z", minutes: 25)]).value == .quantity(1_500, .seconds))
    }

    @Test func oddAndEvenCounts() async throws {
        let three = [
            session("2024-03-12T07:00:00Z", minutes: 30, kind: "yoga", source: "apple_health"),
            session("2024-03-13T07:00:00Z", minutes: 5, kind: "meditation", source: "insight_timer"),
            session("2024-03-14T07:00:00Z", minutes: 12, kind: "breathwork", source: "csv"),
        ]
        #expect(try await run(statistic, three).value == .quantity(720, .seconds))
        let four = three + [session("2024-03-15T07:00:00Z", minutes: 100)]
        #expect(try await run(statistic, four).value == .quantity((720 + 1_800) / 2, .seconds))
    }

    @Test func repeatedDurations() async throws {
        let sessions = [10.0, 10, 10, 40].enumerated().map { session("2024-03-1\($0.offset)T07:00:00Z", minutes: $0.element) }
        #expect(try await run(statistic, sessions).value == .quantity(600, .seconds))
    }

    /// Many sessions, inserted out of order: the offsets into the ordered durations are right.
    @Test(arguments: [100, 101])
    func manySessions(count: Int) async throws {
        let minutes = (1...count).map(Double.init).sorted { ($0 * 37).truncatingRemainder(dividingBy: 101) < ($1 * 37).truncatingRemainder(dividingBy: 101) }
        let sessions = minutes.enumerated().map { index, minutes in
            session(ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 3_600)),
                    minutes: minutes)
        }
        let expected = count.isMultiple(of: 2) ? (Double(count) / 2 + 0.5) * 60 : Double(count + 1) / 2 * 60
        #expect(try await run(statistic, sessions).value == .quantity(expected, .seconds))
    }

    @Test func filtersApply() async throws {
        let sessions = [
            session("2024-03-12T07:00:00Z", seconds: 1),
            session("2024-03-13T07:00:00Z", minutes: 10, kind: "yoga"),
            session("2024-03-14T07:00:00Z", minutes: 20),
            session("2024-03-15T13:00:00Z", minutes: 90),   // after as_of
        ]
        #expect(try await run(statistic, sessions).value == .quantity(600, .seconds))
        #expect(try await run(statistic, sessions, ["minimum_duration": "1m"]).value == .quantity(900, .seconds))
        #expect(try await run(statistic, sessions, ["kinds": ["meditation"]]).value == .quantity(600.5, .seconds))
    }

    // MARK: Outliers

    /// A 1-second session and an 87-hour one: the median is their mean, however outliers are handled.
    @Test(arguments: [
        (nil, (1 + 313_200) / 2, nil),
        ("cap", (1 + 14_400) / 2, "1 session longer than 4 h was capped at 4 h"),
        ("flag", (1 + 313_200) / 2, "1 session longer than 4 h was counted in full but flagged as an outlier"),
        ("drop", 1, "1 session longer than 4 h was left out"),
    ] as [(String?, Double, String?)])
    func oneSecondAndEightySevenHours(outliers: String?, expected: Double, note: String?) async throws {
        let sessions = [session("2024-03-13T07:00:00Z", seconds: 1), session("2024-03-14T07:00:00Z", seconds: 87 * 3600)]
        var parameters: [String: ParameterValue] = [:]
        if let outliers {
            parameters = ["maximum_duration": "4h", "outliers": ParameterValue(stringLiteral: outliers)]
        }
        let result = try await run(statistic, sessions, parameters)
        #expect(result.value == .quantity(expected, .seconds))
        #expect(result.notes == (note.map { [$0] } ?? []))
    }

    /// 10 and 20 minutes and two 87-hour timers: the middle two straddle the kept sessions and the outliers.
    @Test(arguments: [
        ("cap", (1_200 + 14_400) / 2),
        ("flag", (1_200 + 313_200) / 2),
        ("drop", 900),
    ] as [(String, Double)])
    func middleStraddlesTheOutliers(outliers: String, expected: Double) async throws {
        let sessions = [
            session("2024-03-11T07:00:00Z", minutes: 10), session("2024-03-12T07:00:00Z", minutes: 20),
            session("2024-03-13T07:00:00Z", seconds: 87 * 3600), session("2024-03-14T07:00:00Z", seconds: 87 * 3600),
        ]
        let result = try await run(statistic, sessions, ["maximum_duration": "4h", "outliers": ParameterValue(stringLiteral: outliers)])
        #expect(result.value == .quantity(expected, .seconds))
        #expect(result.notes.first?.hasPrefix("2 sessions longer than 4 h were") == true)
    }

    @Test func mostlyOutliersCappedGiveTheMaximum() async throws {
        let sessions = [
            session("2024-03-12T07:00:00Z", minutes: 10),
            session("2024-03-13T07:00:00Z", seconds: 87 * 3600), session("2024-03-14T07:00:00Z", seconds: 50 * 3600),
        ]
        let result = try await run(statistic, sessions, ["maximum_duration": "4h"])
        #expect(result.value == .quantity(14_400, .seconds))
    }

    @Test func droppingEverySessionLeavesNoValue() async throws {
        let result = try await run(statistic, [session("2024-03-14T07:00:00Z", seconds: 87 * 3600)],
                                   ["maximum_duration": "4h", "outliers": "drop"])
        #expect(result.value == .none)
    }
}
