import Foundation
import StillpointCore
@testable import StillpointManifest
@testable import StillpointStatistics
import Testing

/// Manifests written to hurt: aliases that multiply, and predicates nested past any real use. Each is a
/// located error, read without expanding what it stands for.
@Suite("Manifest reader limits")
struct ManifestReaderTests {
    /// A manifest whose `kinds` parameter is an alias standing for `width^depth` values: each anchor `aN`
    /// is a list of `width` aliases of `a(N-1)`.
    static func anchorBomb(width: Int = 10, depth: Int = 7) -> String {
        var lines = ["version: 1", "statistics:", "  - id: fake_count", "    parameters:"]
        lines.append("      minimum_duration: &a0 [" + Array(repeating: "x", count: width).joined(separator: ", ") + "]")
        for level in 1...depth {
            let name = level == depth ? "kinds" : "level_\(level)"
            let anchor = level == depth ? "" : "&a\(level) "
            lines.append("      \(name): \(anchor)[" + Array(repeating: "*a\(level - 1)", count: width).joined(separator: ", ") + "]")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func errors(_ yaml: String) -> [ManifestError] {
        do {
            _ = try Manifest(yaml: yaml, file: "hostile.yaml")
            return []
        } catch {
            return error.errors
        }
    }

    @Test func anAnchorBombIsOneLocatedError() {
        let yaml = Self.anchorBomb()
        let errors = Self.errors(yaml)
        #expect(errors.count == 1)
        let error = errors.first
        #expect(error?.message.contains("more than \(YAMLAliasExpansion.maximumNodes) values") == true)
        #expect(error?.message.contains("aliases") == true)
        // The aliases of level_1 and level_2 stand for 1,220 nodes; level_3's *a2 stand for 1,111 each, and
        // the eighth takes the count past 10,000.
        let line = yaml.split(separator: "\n")[7]
        let eighth = line.ranges(of: "*a2")[7].lowerBound
        #expect(error?.location == SourceLocation(file: "hostile.yaml", line: 8, column: line.distance(from: line.startIndex, to: eighth) + 1))
        #expect(error?.sourceLine?.contains("level_3:") == true)
    }

    /// Yams compares the keys of a mapping whole: a key standing for the bomb took minutes before anything
    /// of ours ran.
    @Test func anAliasUsedAsAKeyIsCaughtBeforeYamsReadsIt() {
        let yaml = Self.anchorBomb() + "      ? *a6\n      : x\n"
        let errors = Self.errors(yaml)
        #expect(errors.count == 1)
        #expect(errors.first?.location?.line == 8)
    }

    @Test func theLimitCountsEveryAliasOfTheManifest() {
        // Each alias stands for 101 nodes, and a hundred of them are fine; a hundred more are not.
        let list = "[" + Array(repeating: "x", count: 100).joined(separator: ", ") + "]"
        let aliases = { (count: Int) in "[" + Array(repeating: "*k", count: count).joined(separator: ", ") + "]" }
        let yaml = { (count: Int) in
            "version: 1\nfilters: {kinds: &k \(list)}\nstatistics:\n  - id: fake_count\n    parameters: {excluded: \(aliases(count))}\n"
        }
        #expect(YAMLAliasExpansion.firstExcess(in: yaml(99)) == nil)
        #expect(YAMLAliasExpansion.firstExcess(in: yaml(200))?.line == 5)
    }

    @Test func aLongManifestWithoutAliasesIsNotCounted() {
        let yaml = "kinds: [" + Array(repeating: "x", count: 20_000).joined(separator: ", ") + "]\n"
        #expect(YAMLAliasExpansion.firstExcess(in: yaml) == nil)
    }

    @Test func aFewAliasesStillRead() throws {
        let manifest = try Manifest(yaml: """
            version: 1
            filters: {kinds: &practice [yoga, meditation]}
            statistics:
              - id: fake_count
                parameters: {kinds: *practice}
            """)
        guard case .list(let kinds)? = manifest.entries.first?.parameters["kinds"]?.content else {
            Issue.record("kinds is not a list")
            return
        }
        #expect(kinds.map(\.text) == ["yoga", "meditation"])
    }

    @Test func aManifestOfMoreThanAMegabyteIsRefused() {
        let yaml = "version: 1\nstatistics: [fake_count]\n# " + String(repeating: "x", count: ManifestReader.maximumBytes) + "\n"
        let errors = Self.errors(yaml)
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("more than the \(ManifestReader.maximumBytes)") == true)
    }

    @Test func aDeeplyNestedWhereIsALocatedError() {
        let depth = 10_000
        let predicate = String(repeating: "(", count: depth) + "duration > 0" + String(repeating: ")", count: depth)
        let yaml = """
            version: 1
            custom_statistics:
              deep: {function: count, where: "\(predicate)"}
            statistics: [deep]
            """
        let errors = Self.errors(yaml)
        #expect(errors.count == 1)
        #expect(errors.first?.message.contains("nest more than \(FetchPredicate.maximumNesting) levels") == true)
        #expect(errors.first?.location?.line == 3)
    }
}
