import Foundation
import PracticeLog
import StillpointCatalog
import StillpointCore
@testable import StillpointManifest
@testable import StillpointStatistics
import Testing

/// A module from outside the built-in ones, as "Writing a statistic module" describes: adding it takes a module
/// type, a catalog that includes it and a manifest entry, and nothing else.
enum EarlyBirdStatisticsModule: StatisticModule {
    static let statistics: [any Statistic] = [EarlySessions()]
}

/// `early_sessions`: the number of qualifying sessions that start before `before` o'clock, local time.
struct EarlySessions: Statistic {
    let id = "early_sessions"

    var description: StatisticDescription {
        StatisticDescription(
            name: "Early sessions",
            summary: "The number of qualifying sessions that start before a local hour.",
            parameters: ParameterDescription.sessionFilter + [
                ParameterDescription("before", type: "hour, 1 to 24", default: "7",
                                     meaning: "Sessions starting before this hour, local time, are early."),
            ],
            examples: [
                StatisticExample(
                    "a session at 06:30 in Berlin is early, one at 08:00 is not",
                    sessions: [.init("2024-03-14T06:30:00+01:00", minutes: 20, timeZone: "Europe/Berlin"),
                               .init("2024-03-15T08:00:00+01:00", minutes: 20, timeZone: "Europe/Berlin")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .quantity(1, .count)),
                StatisticExample(
                    "an empty log has no early session",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .quantity(0, .count)),
            ])
    }

    func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = try parameters.dayBoundary()
        let before = try parameters.integer("before") ?? 7
        guard (1...24).contains(before) else {
            throw ParameterError(statistic: parameters.statistic, parameter: "before",
                                 location: parameters.values["before"]?.location,
                                 message: "expected an hour from 1 to 24, got \(before)")
        }
        return PreparedStatistic { context in
            var count = 0
            try SessionScan.forEach(filter, in: context) { session in
                if boundary.localHour(of: session.start, timeZone: session.timeZone) < before { count += 1 }
            }
            return StatisticResult(.quantity(Double(count), .count))
        }
    }
}

@Suite("StatisticModule")
struct StatisticModuleTests {
    static func catalog() throws -> StatisticCatalog {
        try StatisticCatalog(modules: BuiltInStatistics.modules + [EarlyBirdStatisticsModule.self])
    }

    @Test func aModuleAddedToTheCatalogRunsFromAManifest() async throws {
        let catalog = try Self.catalog()
        #expect(catalog.moduleNames.last == "EarlyBirdStatistics")
        #expect(catalog.ids.last == "early_sessions")

        let manifest = try Manifest(yaml: """
            time_zone: America/New_York
            as_of: 2024-03-15T00:00:00Z
            statistics:
              - total_time
              - early_sessions
              - id: early_sessions
                as: very_early_sessions
                parameters: {before: 6}
            """)
        let entries = try manifest.prepare(catalog: catalog)
        #expect(entries.map(\.name) == ["total_time", "early_sessions", "very_early_sessions"])
        let container = try await TestStore.container([
            .init("2024-03-12T05:30:00+01:00", minutes: 10, timeZone: "Europe/Berlin"),
            .init("2024-03-13T06:45:00+01:00", minutes: 10, timeZone: "Europe/Berlin"),
            .init("2024-03-14T08:00:00+01:00", minutes: 10, timeZone: "Europe/Berlin"),
            .init("2024-03-14T06:30:00Z", minutes: 10),   // no zone of its own: 01:30 in the manifest's New York
        ])
        let values = try await TestStore.run(entries, in: container)
        #expect(values["total_time"] == .quantity(2_400, .seconds))
        #expect(values["early_sessions"] == .quantity(3, .count))
        #expect(values["very_early_sessions"] == .quantity(2, .count))
    }

    @Test func itsExamplesHoldAsTheConformanceTestRunsThem() async throws {
        let statistic = EarlySessions()
        for example in statistic.description.examples {
            #expect(try await example.run(statistic).value == example.expected, "\(example.summary)")
        }
    }

    @Test func itsParametersAreCheckedWhereTheManifestGivesThem() throws {
        let errors = Manifest.validate(yaml: """
            statistics:
              - id: early_sessions
                parameters: {befor: 6}
              - id: early_sessions
                as: bad_hour
                parameters: {before: 25}
              - id: early_sessions
                as: no_hour
                parameters: {before: dawn}
            """, file: "early.yaml", catalog: try Self.catalog())
        #expect(errors.map(\.location) == [
            SourceLocation(file: "early.yaml", line: 3, column: 18),
            SourceLocation(file: "early.yaml", line: 6, column: 26),
            SourceLocation(file: "early.yaml", line: 9, column: 26),
        ])
        #expect(errors[0].message.hasPrefix("'early_sessions' has no parameter 'befor'; did you mean 'before'?"))
        #expect(errors[1].message == "parameter 'before' of 'bad_hour': expected an hour from 1 to 24, got 25")
        #expect(errors[2].message == "parameter 'before' of 'no_hour': expected a whole number, got 'dawn'")
    }
}
