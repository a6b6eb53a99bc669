import Foundation
import PropertyBased
import StillpointCatalog
@testable import StillpointManifest
@testable import StillpointStatistics
import StillpointTestSupport
import Testing

/// The manifest reader on inputs made to break it: the fuzzing corpus mutated at random, and manifests put
/// together from its keys. Every input either reads or is a list of errors that each say where and what; a
/// crash or a hang fails the run. (The libFuzzer target FuzzManifest runs the same much longer.)
@Suite("Manifest fuzzing")
struct ManifestFuzzTests {
    static let seeds = InputMutator.corpus("FuzzManifest")
    static let mutator = InputMutator(tokens: [
        "\n", "  ", "- ", ": ", "{", "}", "[", "]", ", ", "&a ", "*a", "<<: ", "!!str ", "---\n", "? ", "|\n", "'", "\"",
        "statistics:", "custom_statistics:", "parameters: ", "where: ", "(", ")", "NOT ", " AND ", "kinds: ",
        "minimum_duration: ", "session_count", "best_streaks", "1e308", ".nan", "99999999999999999999h",
    ])

    /// Reads `yaml` the way `stillpoint validate` and `report` do, and checks what came back.
    static func check(_ yaml: String, catalog: StatisticCatalog) {
        let lineCount = yaml.split(separator: "\n", omittingEmptySubsequences: false).count
        for error in Manifest.validate(yaml: yaml, file: "fuzz.yaml", catalog: catalog) {
            #expect(!error.message.isEmpty)
            if let location = error.location {
                #expect(location.file == "fuzz.yaml")
                #expect((1...lineCount + 1).contains(location.line), "\(error) of \(yaml.debugDescription)")
            }
        }
        do {
            _ = try Manifest(yaml: yaml, file: "fuzz.yaml").prepare(catalog: catalog)
        } catch {
            #expect(!error.description.isEmpty)
        }
    }

    @Test func theCorpusIsThere() {
        #expect(Self.seeds.count >= 5)
        #expect(Self.seeds.contains { $0.contains("*a6") }, "the anchor bomb seed")
    }

    @Test func mutatedManifests() async throws {
        let catalog = try BuiltInStatistics.catalog()
        let seeds = Self.seeds
        let input = zip(Gen.int(in: 0..<max(1, seeds.count)), Gen<UInt32>.value().array(of: 1...12))
        await propertyCheck(count: 300, input: input) { index, choices in
            let seed = seeds.isEmpty ? "" : seeds[index % seeds.count]
            Self.check(Self.mutator.mutate(seed, choices: choices), catalog: catalog)
        }
    }

    @Test func generatedManifests() async throws {
        let catalog = try BuiltInStatistics.catalog()
        let lines = Gen.element(of: [
            "version: 1", "statistics:", "  - session_count", "  - id: best_streaks", "    parameters:",
            "      count: 3", "      kinds: &k [yoga]", "      kinds: *k", "custom_statistics:",
            "  c: {function: count, where: \"kind == 'yoga'\"}", "filters: {from: 2024-01-01}", "output: {formats: [text]}",
            "time_zone: Europe/Berlin", "day_starts_at: 4h", "as_of: now", "  - {id: current_streak, as: cs}",
        ]).array(of: 0...16).map { $0.compactMap { $0 }.joined(separator: "\n") }
        await propertyCheck(count: 300, input: lines) { yaml in
            Self.check(yaml, catalog: catalog)
        }
    }
}
