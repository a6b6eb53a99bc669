import Foundation
import PracticeLog
import StillpointCore
@testable import StillpointManifest
@testable import StillpointStatistics
import Testing

@Suite("CustomStatistic")
struct CustomStatisticTests {
    static let sessions: [ExampleSession] = [
        .init("2024-03-10T07:00:00Z", minutes: 30, kind: "yoga", source: "insight_timer"),
        .init("2024-03-11T07:00:00Z", minutes: 45, kind: "yoga", source: "apple_health"),
        .init("2024-03-12T07:00:00Z", minutes: 15, kind: "yoga", source: "insight_timer"),
        .init("2024-03-12T20:00:00Z", minutes: 40, kind: "meditation", source: "insight_timer"),
        .init("2024-03-13T20:00:00Z", minutes: 10, kind: "meditation", source: "csv"),
        .init("2024-03-14T20:00:00Z", minutes: 0, kind: "meditation", source: "csv"),        // zero-length: never qualifies
        .init("2024-03-20T07:00:00Z", minutes: 60, kind: "yoga", source: "insight_timer"),   // after as_of
    ]

    /// The values of a manifest's entries over ``sessions``.
    static func values(_ yaml: String) async throws -> [String: StatisticValue] {
        let manifest = try Manifest(yaml: yaml, file: "custom.yaml")
        let entries = try manifest.prepare(catalog: try TestStatisticsModule.catalog())
        return try await TestStore.run(entries, in: try await TestStore.container(sessions))
    }

    static func errors(_ yaml: String) throws -> [ManifestError] {
        Manifest.validate(yaml: yaml, file: "custom.yaml", catalog: try TestStatisticsModule.catalog())
    }

    @Test func runsEndToEndOverAStore() async throws {
        let values = try await Self.values("""
            as_of: 2024-03-15T00:00:00Z
            custom_statistics:
              yoga_time:
                entity: Session
                function: sum
                attribute: duration
                where: "kind == 'yoga'"
                group_by: [source]
                unit: seconds
                name: Yoga time
              long_sittings: {function: count, where: "kind == 'meditation' AND duration >= 1800"}
              average_yoga: {function: average, attribute: duration, where: "kind ==[c] 'YOGA'"}
              swimming_time: {function: sum, attribute: duration, where: "kind == 'swimming'"}
              longest_swim: {function: maximum, attribute: duration, where: "kind == 'swimming'"}
              first_session: {function: minimum, attribute: start}
              time_by_kind_and_source: {function: sum, attribute: duration, group_by: [kind, source]}
            statistics:
              - yoga_time
              - id: yoga_time
                as: long_yoga_time
                parameters: {minimum_duration: 20m}
              - long_sittings
              - average_yoga
              - swimming_time
              - longest_swim
              - first_session
              - time_by_kind_and_source
            """)
        #expect(values["yoga_time"] == .record([.init("apple_health", .quantity(2_700, .seconds)),
                                               .init("insight_timer", .quantity(2_700, .seconds))]))
        #expect(values["long_yoga_time"] == .record([.init("apple_health", .quantity(2_700, .seconds)),
                                                    .init("insight_timer", .quantity(1_800, .seconds))]))
        #expect(values["long_sittings"] == .quantity(1, .count))
        #expect(values["average_yoga"] == .quantity(1_800, .seconds))
        #expect(values["swimming_time"] == .quantity(0, .seconds))
        #expect(values["longest_swim"] == StatisticValue.none)
        #expect(values["first_session"] == .text("2024-03-10T07:00:00Z"))
        #expect(values["time_by_kind_and_source"] == .record([
            .init("meditation", .record([.init("csv", .quantity(600, .seconds)), .init("insight_timer", .quantity(2_400, .seconds))])),
            .init("yoga", .record([.init("apple_health", .quantity(2_700, .seconds)), .init("insight_timer", .quantity(2_700, .seconds))])),
        ]))
    }

    @Test func theReportFiltersApply() async throws {
        let values = try await Self.values("""
            as_of: 2024-03-15T00:00:00Z
            filters: {from: 2024-03-11, until: 2024-03-12, kinds: [yoga]}
            custom_statistics:
              sessions: {function: count}
            statistics: [sessions]
            """)
        #expect(values["sessions"] == .quantity(2, .count))   // the yoga of the 11th and the 12th
    }

    @Test func itsDescriptionSaysWhatItComputes() throws {
        let statistic = try CustomStatistic(id: "yoga_time", function: .sum, attribute: "duration", where: "kind == 'yoga'", groupBy: ["source"])
        #expect(statistic.description.name == "Yoga time")
        #expect(statistic.description.summary == "The sum of duration over Session where kind == 'yoga', by source.")
        #expect(statistic.description.parameters.map(\.name) == ["kinds", "minimum_duration", "as_of"])
        #expect(statistic.unit == .seconds)
        #expect(try CustomStatistic(id: "n", function: .count).unit == .count)
    }

    @Test func runsAsAnExample() async throws {
        let statistic = try CustomStatistic(id: "yoga_count", function: .count, where: "kind == 'yoga'")
        let example = StatisticExample("one yoga session of two", sessions: [
            .init("2024-03-14T08:00:00Z", minutes: 20, kind: "yoga"), .init("2024-03-14T09:00:00Z", minutes: 20),
        ], parameters: ["as_of": "2024-03-15T00:00:00Z"], expected: .quantity(1, .count))
        #expect(try await example.run(statistic).value == example.expected)
    }

    // MARK: Errors

    @Test func aBadPredicatePointsAtTheManifestWithTheCaret() throws {
        let yaml = """
            custom_statistics:
              yoga_time:
                function: sum
                attribute: duration
                where: "kind == AND source == 'csv'"
            statistics: [yoga_time]
            """
        let errors = try Self.errors(yaml)
        #expect(errors.count == 1)
        let error = try #require(errors.first)
        let column = ManifestTests.column(of: "AND", line: 5, in: yaml)
        #expect(error.location == SourceLocation(file: "custom.yaml", line: 5, column: column))
        #expect(error.message.hasPrefix("invalid where predicate: "))
        // The parser's own caret, under the predicate...
        #expect(error.message.contains("kind == AND source == 'csv'\n          ^"))
        // ...and the manifest's, under the same character of the file.
        #expect(error.description.hasSuffix("\n" + String(repeating: " ", count: 4 + column - 1) + "^"))
    }

    @Test func anUnknownNameInThePredicateIsSuggested() throws {
        let yaml = """
            custom_statistics:
              yoga_time: {function: sum, attribute: duration, where: "knd == 'yoga'"}
            statistics: [yoga_time]
            """
        let errors = try Self.errors(yaml)
        #expect(errors.count == 1)
        #expect(errors.first?.location?.column == ManifestTests.column(of: "knd", line: 2, in: yaml))
        #expect(errors.first?.message.contains("Session has no attribute 'knd'; did you mean 'kind'?") == true)
    }

    @Test func aComparisonOfTheWrongTypeIsAnError() throws {
        let errors = try Self.errors("""
            custom_statistics:
              yoga_time: {function: sum, attribute: duration, where: "duration == 'long'"}
            statistics: [yoga_time]
            """)
        #expect(errors.map(\.location?.line) == [2])
        #expect(errors.first?.message.contains("'duration' is a double attribute") == true)
    }

    @Test func unknownNamesAreSuggested() throws {
        let yaml = """
            custom_statistics:
              a: {entity: Sesion, function: count}
              b: {function: summ, attribute: duration}
              c: {function: sum, attribute: duraton}
              d: {function: count, group_by: [kind, sorce]}
              e: {function: average, attribute: kind}
              f: {attribute: duration}
              g: {function: maximum}
              h: {function: count, unit: minutes}
            statistics: [a, b, c, d, e, f, g, h]
            """
        let errors = try Self.errors(yaml)
        #expect(errors.map(\.location?.line) == [2, 3, 4, 5, 6, 7, 8, 9])
        #expect(errors[0].message.hasPrefix("the schema has no entity 'Sesion'; did you mean 'Session'?"))
        #expect(errors[1].message.hasPrefix("unknown function 'summ'; did you mean 'sum'?"))
        #expect(errors[2].message.hasPrefix("Session has no attribute 'duraton'; did you mean 'duration'?"))
        #expect(errors[3].message.hasPrefix("Session has no attribute 'sorce'; did you mean 'source'?"))
        #expect(errors[3].location?.column == ManifestTests.column(of: "sorce", line: 5, in: yaml))
        #expect(errors[4].message.hasPrefix("'kind' is a string attribute; average needs a number"))
        #expect(errors[5].message.hasPrefix("custom statistic 'f' has no function"))
        #expect(errors[6].message.hasPrefix("maximum needs an attribute"))
        #expect(errors[7].message.hasPrefix("unknown unit 'minutes'"))
    }

    /// A relationship names rows by id, which no reader can use: it is neither grouped by nor aggregated, and the
    /// message says so instead of suggesting the very name it refuses.
    @Test func aRelationshipIsNotAnAttributeAndTheMessageSaysSo() throws {
        let yaml = """
            custom_statistics:
              by_run: {function: count, group_by: [kind, importRuns]}
              runs: {function: maximum, attribute: importRuns}
              of_run: {function: count, where: "importRuns == 1"}
            statistics: [by_run, runs, of_run]
            """
        let errors = try Self.errors(yaml)
        #expect(errors.map(\.location?.line) == [2, 3, 4], "\(errors)")
        for error in errors {
            #expect(error.message.contains("'importRuns' is a relationship of Session (to ImportRun), not an attribute"), "\(error.message)")
            #expect(error.message.contains("by_import totals the sessions of each import run"), "\(error.message)")
            #expect(!error.message.contains("did you mean"), "\(error.message)")
        }
        #expect(errors[0].location?.column == ManifestTests.column(of: "importRuns", line: 2, in: yaml))
    }

    @Test func sqlIsNeverPastedIn() throws {
        let errors = try Self.errors("""
            custom_statistics:
              sneaky: {function: count, where: "1 = 1; DROP TABLE Session"}
            statistics: [sneaky]
            """)
        #expect(errors.count == 1)
        #expect(errors.first?.message.hasPrefix("invalid where predicate") == true)
    }
}

extension CustomStatisticTests {
    /// MATCHES runs on every store, translated for PostgreSQL; a pattern PostgreSQL can't mean as ICU does is a
    /// mistake of the manifest, found by validation, when the statistic's where: runs in the store.
    @Test func aMatchesPatternPostgreSQLCannotRunFailsValidationWhenTheStatisticQueriesTheStore() throws {
        let errors = try Self.errors("""
            custom_statistics:
              noted: {function: count, where: "note MATCHES '\\\\\\\\w+ room'"}
              noted_rooms: {function: count, where: "note MATCHES[c] '.*room \\\\\\\\d+'"}
              yoga_like: {function: count, where: "kind MATCHES '\\\\\\\\w+'"}
            statistics: [noted, noted_rooms, yoga_like]
            """)
        // `note` is not in the digest, so `noted` queries the store; `yoga_like` reads only `kind`, in memory.
        #expect(errors.map(\.location?.line) == [2], "\(errors)")
        #expect(errors.first?.message.contains("MATCHES '\\w+ room' can't run on PostgreSQL: \\w is ICU's Unicode word characters") == true,
                "\(errors)")
        #expect(errors.first?.message.contains("runs in the store") == true, "\(errors)")
    }
}
