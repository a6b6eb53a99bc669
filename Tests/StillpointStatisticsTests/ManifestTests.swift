import Foundation
import PracticeLog
import StillpointCore
@testable import StillpointManifest
@testable import StillpointStatistics
import Testing

@Suite("Manifest")
struct ManifestTests {
    /// The errors of `yaml`: loading's, else preparing's against the test catalog.
    static func errors(_ yaml: String) throws -> [ManifestError] {
        Manifest.validate(yaml: yaml, file: "test.yaml", catalog: try TestStatisticsModule.catalog())
    }

    /// The 1-based column of `text` in line `line` of `yaml`.
    static func column(of text: String, line: Int, in yaml: String) -> Int {
        let lineText = yaml.split(separator: "\n", omittingEmptySubsequences: false)[line - 1]
        return lineText.distance(from: lineText.startIndex, to: lineText.range(of: text)!.lowerBound) + 1
    }

    // MARK: Reading

    @Test func readsEveryKey() throws {
        let manifest = try Manifest(yaml: """
            version: 1
            store: logs/practice.sqlite
            time_zone: Europe/Berlin
            day_starts_at: 4h
            as_of: 2024-03-15T12:00:00Z
            filters:
              from: 2024-01-01
              until: 2024-01-31
              kinds: [yoga, meditation]
            statistics:
              - fake_count
              - id: zone_echo
              - id: fake_count
                as: fake_count_10m
                parameters:
                  minimum_duration: 10m
                  kinds: [yoga]
            output:
              formats: [text, json]
              path: reports/practice
            """, file: "/tmp/manifests/my.yaml")

        #expect(manifest.version == 1)
        #expect(manifest.store == "logs/practice.sqlite")
        #expect(manifest.storeURL?.path == "/tmp/manifests/logs/practice.sqlite")
        #expect(manifest.environment.timeZone.identifier == "Europe/Berlin")
        #expect(manifest.environment.dayStartsAt == 4 * 3600)
        #expect(manifest.environment.asOf == (try Date("2024-03-15T12:00:00Z", strategy: .iso8601)))
        // Dates are days in the manifest's zone, starting at day_starts_at; `until` includes its day.
        #expect(manifest.environment.from == (try Date("2024-01-01T04:00:00+01:00", strategy: .iso8601)))
        #expect(manifest.environment.until == (try Date("2024-02-01T04:00:00+01:00", strategy: .iso8601)))
        #expect(manifest.environment.kinds == ["yoga", "meditation"])
        #expect(manifest.entries.map(\.id) == ["fake_count", "zone_echo", "fake_count"])
        #expect(manifest.entries.map(\.name) == ["fake_count", "zone_echo", "fake_count_10m"])
        #expect(manifest.entries[2].parameters["minimum_duration"]?.text == "10m")
        #expect(manifest.entries[2].parameters["minimum_duration"]?.location == SourceLocation(file: "/tmp/manifests/my.yaml", line: 16, column: 25))
        #expect(manifest.output == ManifestOutput(formats: [.text, .json], path: "reports/practice"))
    }

    @Test func defaultsWhenKeysAreLeftOut() throws {
        let manifest = try Manifest(yaml: "statistics: [fake_count]")
        #expect(manifest.version == 1)
        #expect(manifest.store == nil)
        #expect(manifest.environment.timeZone.secondsFromGMT(for: Date()) == 0)
        #expect(manifest.environment.dayStartsAt == 0)
        #expect(manifest.environment.from == nil && manifest.environment.kinds == nil)
        #expect(manifest.output == ManifestOutput(formats: [.text]))
        #expect(manifest.customStatistics.isEmpty)
    }

    @Test func loadsAFileAndNamesItInErrors() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID()).yaml")
        try "statistics:\n  - id: fake_count\n    as: Fake Count\n".write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = #expect(throws: ManifestErrors.self) { try Manifest.load(contentsOf: url) }
        #expect(error?.errors.first?.location == SourceLocation(file: url.path, line: 3, column: 9))
        #expect(error?.errors.first?.message.contains("write it like fake_count") == true)
        #expect(error?.description.hasPrefix("\(url.path):3:9: error: ") == true)
    }

    @Test func aMissingFileSaysSo() {
        let error = #expect(throws: ManifestErrors.self) { try Manifest.load(contentsOf: URL(fileURLWithPath: "/nonexistent/m.yaml")) }
        #expect(error?.errors.first?.message.contains("there is no such file") == true)
    }

    // MARK: Errors

    @Test func malformedYAMLHasItsLineAndColumn() throws {
        let yaml = """
            statistics:
              - id: fake_count
                parameters: {kinds: [yoga}
            """
        let errors = try Self.errors(yaml)
        #expect(errors.count == 1)
        let error = try #require(errors.first)
        #expect(error.location?.line == 3)
        #expect(error.location?.file == "test.yaml")
        #expect(error.message.hasPrefix("malformed YAML"))
        #expect(error.description.contains("test.yaml:3:"))
        #expect(error.description.contains("parameters: {kinds: [yoga}\n"))
    }

    /// libyaml notices a missing colon, quote or bracket at the next line; the error points at the line with
    /// the mistake.
    @Test(arguments: [
        ("version: 1\nstatistics:\n  - fake_count\nstore practice.sqlite\ntime_zone: UTC\n", 4, "store practice.sqlite"),
        ("version: 1\nstatistics:\n  - fake_count\nstore: \"practice.sqlite\n", 4, "store: \"practice.sqlite"),
        ("version: 1\nstatistics:\n  - id: [fake_count\ntime_zone: UTC\n", 3, "  - id: [fake_count"),
    ])
    func aSyntaxErrorIsReportedOnTheLineOfTheMistake(yaml: String, line: Int, text: String) throws {
        let errors = try Self.errors(yaml)
        #expect(errors.count == 1)
        #expect(errors.first?.location?.line == line, "\(errors)")
        #expect(errors.first?.description.contains(text + "\n") == true, "\(errors)")
    }

    @Test func badIndentationIsMalformed() throws {
        let errors = try Self.errors("statistics:\n  - id: fake_count\n   - id: zone_echo\n")
        #expect(errors.count == 1)
        #expect(errors.first?.location?.line == 3)
    }

    @Test func aKeyTwiceIsAnError() throws {
        let errors = try Self.errors("time_zone: UTC\nstatistics: [fake_count]\ntime_zone: Europe/Berlin\n")
        #expect(errors.map(\.message) == ["the key 'time_zone' appears twice in one mapping; keep one of them"])
    }

    @Test func anUnknownTopLevelKeySuggestsTheNearest() throws {
        let yaml = """
            version: 1
            statistcs:
              - fake_count
            """
        let errors = try Self.errors(yaml)
        #expect(errors.count == 2)
        #expect(errors[0].location == SourceLocation(file: "test.yaml", line: 1, column: 1))
        #expect(errors[0].message.hasPrefix("the manifest lists no statistics"))
        #expect(errors[1].location == SourceLocation(file: "test.yaml", line: 2, column: 1))
        #expect(errors[1].message.hasPrefix("unknown key 'statistcs' in the manifest; did you mean 'statistics'?"))
        #expect(errors[1].description.contains("statistcs:\n    ^"))
    }

    @Test func unknownKeysAreFoundAtEveryLevel() throws {
        let yaml = """
            filters:
              form: 2024-01-01
            statistics:
              - id: fake_count
                parameter: {kinds: [yoga]}
            output:
              format: [json]
            custom_statistics:
              yoga_time: {function: sum, atribute: duration}
            """
        let messages = try Self.errors(yaml).map(\.message)
        #expect(messages.count == 4)
        #expect(messages[0].hasPrefix("unknown key 'form' in filters; did you mean 'from'?"))
        #expect(messages[1].hasPrefix("unknown key 'parameter' in a statistics entry; did you mean 'parameters'?"))
        #expect(messages[2].hasPrefix("unknown key 'format' in output; did you mean 'formats'?"))
        #expect(messages[3].hasPrefix("unknown key 'atribute' in custom statistic 'yoga_time'; did you mean 'attribute'?"))
    }

    @Test func anUnknownStatisticSuggestsTheNearest() throws {
        let yaml = """
            statistics:
              - id: fake_cuont
              - zone_ecko
              - id: nothing_like_it
            """
        let errors = try Self.errors(yaml)
        #expect(errors.map(\.location) == [
            SourceLocation(file: "test.yaml", line: 2, column: 9),
            SourceLocation(file: "test.yaml", line: 3, column: 5),
            SourceLocation(file: "test.yaml", line: 4, column: 9),
        ])
        #expect(errors[0].message.hasPrefix("there is no statistic 'fake_cuont'; did you mean 'fake_count'?"))
        #expect(errors[1].message.hasPrefix("there is no statistic 'zone_ecko'; did you mean 'zone_echo'?"))
        #expect(errors[2].message.hasPrefix("there is no statistic 'nothing_like_it'; `stillpoint statistics` lists them"))
    }

    @Test func anUnknownParameterSuggestsTheNearest() throws {
        let yaml = """
            statistics:
              - id: zone_echo
                parameters:
                  time_zome: Asia/Tokyo
            """
        let errors = try Self.errors(yaml)
        #expect(errors.count == 1)
        #expect(errors.first?.location == SourceLocation(file: "test.yaml", line: 4, column: 7))
        #expect(errors.first?.message.hasPrefix("'zone_echo' has no parameter 'time_zome'; did you mean 'time_zone'?") == true)
        #expect(errors.first?.message.contains("Its parameters are: time_zone, day_starts_at, as_of") == true)
    }

    @Test func anUnknownParameterDoesNotHideAWrongOne() throws {
        let yaml = """
            statistics:
              - id: fake_count
                parameters: {minimum_duraton: 10m, kinds: {yoga: true}}
            """
        let errors = try Self.errors(yaml)
        #expect(errors.map(\.location?.column) == [Self.column(of: "minimum_duraton", line: 3, in: yaml),
                                                    Self.column(of: "{yoga", line: 3, in: yaml)])
        #expect(errors[0].message.hasPrefix("'fake_count' has no parameter 'minimum_duraton'"))
        #expect(errors[1].message == "parameter 'kinds' of 'fake_count': expected a list, not a map")
    }

    @Test func aParameterOfTheWrongTypePointsAtItsValue() throws {
        let yaml = """
            statistics:
              - id: fake_count
                parameters:
                  kinds: [yoga]
                  minimum_duration: ten minutes
              - id: zone_echo
                parameters: {time_zone: [Asia/Tokyo]}
            """
        let errors = try Self.errors(yaml)
        #expect(errors.count == 2)
        let column = Self.column(of: "ten minutes", line: 5, in: yaml)
        #expect(errors[0].location == SourceLocation(file: "test.yaml", line: 5, column: column))
        #expect(errors[0].message == "parameter 'minimum_duration' of 'fake_count': expected a duration such as 600, 10m or 1h30m, got 'ten minutes'")
        #expect(errors[0].description.hasSuffix("minimum_duration: ten minutes\n" + String(repeating: " ", count: 4 + column - 1) + "^"))
        #expect(errors[1].location == SourceLocation(file: "test.yaml", line: 7, column: Self.column(of: "[Asia", line: 7, in: yaml)))
        #expect(errors[1].message.contains("not a list"))
    }

    @Test func wrongTypesInTheManifestItself() throws {
        let yaml = """
            version: two
            time_zone: [UTC]
            day_starts_at: early
            as_of: yesterday
            filters: [yoga]
            statistics: {fake_count: true}
            output: {formats: [text, pdf]}
            """
        let messages = try Self.errors(yaml).map(\.message)
        #expect(messages == [
            "unsupported version 'two': this Stillpoint reads version 1 manifests; write version: 1",
            "time_zone expects an IANA time zone such as Europe/Berlin, not a list",
            "day_starts_at expects a duration such as 0, 4h or -2h, not 'early'",
            "as_of expects an instant that exists, \(ISOInstant.expectedForm), or now; got 'yesterday'",
            "filters expects a mapping of from, until and kinds, not a list",
            "statistics expects a list of entries, one per line, each `- id: some_statistic` or `- some_statistic`",
            "unknown output format 'pdf'; use any of: text, json, markdown, csv, html",
        ])
    }

    @Test func anUnknownTimeZoneSuggestsTheNearest() throws {
        let messages = try Self.errors("time_zone: Europe/Berln\nstatistics: []").map(\.message)
        #expect(messages.first?.hasPrefix("unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'?") == true)
    }

    @Test func namesMustBeUnique() throws {
        let yaml = """
            statistics:
              - id: fake_count
              - id: fake_count
              - id: zone_echo
                as: echo
              - id: fake_count
                as: echo
            """
        let errors = try Self.errors(yaml)
        #expect(errors.map(\.location?.line) == [3, 6])
        #expect(errors[0].message == "'fake_count' is listed twice (line 2); to run it again with other parameters, name this entry with `as:`, e.g. as: fake_count_2")
        #expect(errors[1].message == "the name 'echo' is already taken (line 4); names given with `as:` must be unique")
    }

    @Test func aNameCannotBeAnotherStatisticsId() throws {
        let errors = try Self.errors("""
            statistics:
              - id: zone_echo
                as: fake_count
            """)
        #expect(errors.map(\.location?.line) == [2])
        #expect(errors.first?.message.hasPrefix("the name 'fake_count' is the id of another statistic") == true)
    }

    @Test func everyProblemIsReportedAtOnce() throws {
        let yaml = """
            time_zone: Mars/Olympus
            statistics:
              - id: fake_count
                parameters: {minimum_duration: soon}
              - id: zone_ech
            outptu: {formats: [json]}
            """
        let errors = try Self.errors(yaml)
        #expect(errors.map(\.location?.line) == [1, 4, 5, 6])
        let thrown = #expect(throws: ManifestErrors.self) {
            try Manifest(yaml: yaml, file: "test.yaml").prepare(catalog: try TestStatisticsModule.catalog())
        }
        #expect(thrown?.errors.count == 2)   // loading stops before preparing
        #expect(thrown?.description.hasSuffix("2 problems in the manifest") == true)
    }

    // MARK: Preparing

    @Test func theTopLevelZoneAppliesUnlessAStatisticSaysOtherwise() async throws {
        let manifest = try Manifest(yaml: """
            time_zone: Europe/Berlin
            day_starts_at: 4h
            as_of: 2024-03-15T12:00:00Z
            statistics:
              - zone_echo
              - id: zone_echo
                as: tokyo_echo
                parameters: {time_zone: Asia/Tokyo, as_of: 2024-03-16T00:00:00Z}
              - id: zone_echo
                as: midnight_echo
                parameters: {day_starts_at: 0}
            """)
        let entries = try manifest.prepare(catalog: try TestStatisticsModule.catalog())
        #expect(entries.map(\.name) == ["zone_echo", "tokyo_echo", "midnight_echo"])
        let values = try await TestStore.run(entries, in: try await TestStore.container([]))
        #expect(values["zone_echo"] == ZoneEcho.value(zone: "Europe/Berlin", dayStartsAt: 14_400, asOf: "2024-03-15T12:00:00Z"))
        #expect(values["tokyo_echo"] == ZoneEcho.value(zone: "Asia/Tokyo", dayStartsAt: 14_400, asOf: "2024-03-16T00:00:00Z"))
        #expect(values["midnight_echo"] == ZoneEcho.value(zone: "Europe/Berlin", dayStartsAt: 0, asOf: "2024-03-15T12:00:00Z"))
    }

    @Test func filtersApplyToEveryStatistic() async throws {
        let manifest = try Manifest(yaml: """
            as_of: 2024-03-15T12:00:00Z
            filters: {from: 2024-03-01, kinds: [yoga]}
            statistics:
              - fake_count
              - id: fake_count
                as: meditation_count
                parameters: {kinds: [meditation]}
            """)
        let container = try await TestStore.container([
            .init("2024-02-20T08:00:00Z", minutes: 20, kind: "yoga"),
            .init("2024-03-02T08:00:00Z", minutes: 20, kind: "yoga"),
            .init("2024-03-03T08:00:00Z", minutes: 20, kind: "meditation"),
            .init("2024-03-16T08:00:00Z", minutes: 20, kind: "yoga"),
        ])
        let values = try await TestStore.run(try manifest.prepare(catalog: try TestStatisticsModule.catalog()), in: container)
        #expect(values["fake_count"] == .quantity(1, .count))
        #expect(values["meditation_count"] == .quantity(1, .count))
    }

    @Test func aCustomStatisticCannotTakeAnotherId() throws {
        let errors = try Self.errors("""
            custom_statistics:
              fake_count: {function: count}
            statistics: [fake_count]
            """)
        #expect(errors.map(\.location?.line) == [2])
        #expect(errors.first?.message.hasPrefix("the custom statistic 'fake_count' takes the id of another statistic") == true)
    }

    // MARK: Values that make no sense

    /// A day boundary lies within a day; `nan`, `inf` and `1e300` used to trap in `DayBoundary`.
    @Test(arguments: ["nan", "inf", "-inf", "1e300", "48h", "24h", "-24h", "86400", "1e400"])
    func aDayBoundaryOutsideADayIsRefusedWhereItIsWritten(value: String) throws {
        let yaml = "version: 1\nday_starts_at: \(value)\nstatistics:\n  - zone_echo\n  - id: zone_echo\n    as: own\n    parameters: {day_starts_at: \(value)}\n"
        let errors = try Self.errors(yaml)
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.first?.location == SourceLocation(file: "test.yaml", line: 2, column: 16))
        #expect(errors.first?.message.contains("day_starts_at must lie within a day") == true)
        #expect(errors.first?.message.contains("'\(value)'") == true)
        #expect(errors.last?.location?.line == 7)
        #expect(errors.last?.message.contains("day_starts_at must lie within a day") == true)
    }

    @Test(arguments: ["0", "4h", "-2h", "23h59m", "-23h", "3600"])
    func aDayBoundaryWithinADayIsRead(value: String) throws {
        let manifest = try Manifest(yaml: "version: 1\nday_starts_at: \(value)\nstatistics: [zone_echo]\n")
        #expect(abs(manifest.environment.dayStartsAt) < 86_400)
        #expect(try Self.errors("version: 1\nstatistics:\n  - id: zone_echo\n    parameters: {day_starts_at: \(value)}\n").isEmpty)
    }

    @Test(arguments: [
        ("minimum_duration: -5m", "expected a duration of 0 or more"),
        ("minimum_duration: nan", "expected a finite duration of at most 366d"),
        ("minimum_duration: inf", "expected a finite duration of at most 366d"),
        ("minimum_duration: 1e300", "expected a finite duration of at most 366d"),
        ("minimum_duration: 400d", "expected a finite duration of at most 366d"),
        ("as_of: 2024-02-30", "an ISO 8601 instant that exists"),
        ("as_of: \"2024-03-15T25:00:00Z\"", "an ISO 8601 instant that exists"),
        ("time_zone: GMT+99", "expected an IANA time zone"),
    ])
    func aParameterThatMakesNoSenseIsRefusedWhereItIsWritten(parameter: String, message: String) throws {
        let errors = try Self.errors("version: 1\nstatistics:\n  - id: fake_count\n    parameters: {\(parameter)}\n")
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.location?.line == 4)
        #expect(errors.first?.message.contains(message) == true, "\(errors)")
    }

    @Test(arguments: [
        ("as_of: 2024-02-30", 1, "as_of expects an instant that exists"),
        ("as_of: \"2024-03-15T12:00:00+15:00\"", 1, "as_of expects an instant that exists"),
        ("filters: {from: 2024-02-30}", 1, "from expects a date that exists"),
        ("filters: {until: \"2024-03-15T24:00:00Z\"}", 1, "until expects a date that exists"),
    ])
    func anInstantThatDoesNotExistIsRefused(line: String, count: Int, message: String) throws {
        let errors = try Self.errors("version: 1\n\(line)\nstatistics: [fake_count]\n")
        #expect(errors.count == count, "\(errors)")
        #expect(errors.first?.location?.line == 2)
        #expect(errors.first?.message.hasPrefix(message) == true, "\(errors)")
    }

    @Test func aMissingFileIsUnreadableAndAMalformedOneIsNot() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString).yaml")
        #expect(throws: ManifestErrors.self) { try Manifest.load(contentsOf: missing) }
        do {
            _ = try Manifest.load(contentsOf: missing)
        } catch {
            #expect(error.isUnreadableFile)
            #expect(error.summary.hasPrefix("cannot read the manifest \(missing.path): there is no such file"))
        }
        do {
            _ = try Manifest(yaml: "version: 1\nday_starts_at: 48h\nstatistics: [nope]\n", file: "m.yaml")
            Issue.record("a manifest with a bad day_starts_at was read")
        } catch {
            #expect(!error.isUnreadableFile)
            #expect(error.summary.hasPrefix("m.yaml:2:16: day_starts_at must lie within a day"))
            #expect(!error.summary.contains("error:"))
        }
    }
}
