import StillpointTestSupport
import Foundation
import StillpointStatistics
import Testing
@testable import TotalStatistics

@Suite("ByKind")
struct ByKindTests {
    let statistic = ByKind()

    @Test func emptyLogHasEmptyGroups() async throws {
        let value = try await run(statistic, []).value
        #expect(value == .record([StatisticField("kind", .record([])), StatisticField("source", .record([]))]))
    }

    @Test func oneSession() async throws {
        let value = try await run(statistic, [session("2024-03-14T07:00:00Z", minutes: 20, kind: "yoga", source: "csv")]).value
        #expect(value == .record([
            StatisticField("kind", .record([StatisticField("yoga", tally(1, 1_200))])),
            StatisticField("source", .record([StatisticField("csv", tally(1, 1_200))])),
        ]))
    }

    @Test func severalKindsAndSourcesInAlphabeticalOrder() async throws {
        let sessions = [
            session("2024-03-11T07:00:00Z", minutes: 30, kind: "yoga", source: "insight_timer"),
            session("2024-03-12T07:00:00Z", minutes: 10, kind: "meditation", source: "insight_timer"),
            session("2024-03-13T07:00:00Z", minutes: 20, kind: "meditation", source: "apple_health"),
            session("2024-03-14T07:00:00Z", minutes: 5, kind: "breathwork", source: "medito"),
            session("2024-03-15T07:00:00Z", seconds: 87 * 3600, kind: "yoga", source: "apple_health"),
        ]
        let value = try await run(statistic, sessions).value
        #expect(value == .record([
            StatisticField("kind", .record([
                StatisticField("breathwork", tally(1, 300)),
                StatisticField("meditation", tally(2, 1_800)),
                StatisticField("yoga", tally(2, 1_800 + 313_200)),
            ])),
            StatisticField("source", .record([
                StatisticField("apple_health", tally(2, 1_200 + 313_200)),
                StatisticField("insight_timer", tally(2, 2_400)),
                StatisticField("medito", tally(1, 300)),
            ])),
        ]))
    }

    @Test func filtersApply() async throws {
        let sessions = [
            session("2024-03-12T07:00:00Z", seconds: 1, kind: "meditation", source: "a"),
            session("2024-03-13T07:00:00Z", minutes: 10, kind: "meditation", source: "b"),
            session("2024-03-14T07:00:00Z", minutes: 30, kind: "yoga", source: "a"),
            session("2024-03-16T07:00:00Z", minutes: 30, kind: "qigong", source: "c"),   // after as_of
        ]
        let value = try await run(statistic, sessions, ["minimum_duration": "1m", "kinds": ["meditation", "qigong"]]).value
        #expect(value == .record([
            StatisticField("kind", .record([StatisticField("meditation", tally(1, 600))])),
            StatisticField("source", .record([StatisticField("b", tally(1, 600))])),
        ]))
        #expect(try await run(statistic, sessions).value["kind"]?["meditation"] == tally(2, 601))
        #expect(try await run(statistic, sessions).value["source"]?["a"] == tally(2, 1_801))
    }
}
