import Foundation
import StillpointCatalog
@testable import StillpointManifest
@testable import StillpointStatistics
import Testing

/// The manifests under `Config/`: they load, name known statistics, and prepare against the built-in catalog.
@Suite("Config manifests")
struct ManifestConfigTests {
    static let config = TestStore.repository.appendingPathComponent("Config")
    static let defaultManifest = config.appendingPathComponent("default.yaml")

    /// The ids of the built-in statistics, from their modules.
    static let builtInIDs = Set(BuiltInStatistics.modules.flatMap { $0.statistics }.map(\.id))

    static var manifests: [URL] {
        let examples = config.appendingPathComponent("examples")
        let files = (try? FileManager.default.contentsOfDirectory(at: examples, includingPropertiesForKeys: nil)) ?? []
        return [defaultManifest] + files.filter { $0.pathExtension == "yaml" }.sorted { $0.path < $1.path }
    }

    @Test func theExamplesAreThere() {
        #expect(Set(Self.manifests.map(\.lastPathComponent)).isSuperset(of: [
            "default.yaml", "yoga-only.yaml", "custom-statistics.yaml", "rest-days.yaml",
        ]))
    }

    @Test("Every manifest under Config/ loads", arguments: manifests)
    func loads(_ url: URL) throws {
        let manifest = try Manifest.load(contentsOf: url)
        #expect(!manifest.entries.isEmpty)
        let custom = Set(manifest.customStatistics.map(\.id))
        for entry in manifest.entries where !custom.contains(entry.id) {
            #expect(Self.builtInIDs.contains(entry.id), "\(url.lastPathComponent): '\(entry.id)' is not a built-in statistic")
        }
    }

    /// Prepares the entries whose statistics the catalog has: a module still being written does not fail this test,
    /// and ``theDefaultManifestShowsEveryBuiltInStatistic()`` says which are missing.
    @Test("Every manifest under Config/ prepares", arguments: manifests)
    func prepares(_ url: URL) throws {
        var manifest = try Manifest.load(contentsOf: url)
        var catalog = try BuiltInStatistics.catalog()
        catalog = try manifest.catalog(adding: catalog)
        manifest.entries = manifest.entries.filter { catalog.ids.contains($0.id) }
        let entries = try manifest.prepare(catalog: try BuiltInStatistics.catalog())
        #expect(entries.count == manifest.entries.count)
    }

    @Test func theDefaultManifestShowsEveryBuiltInStatistic() throws {
        let manifest = try Manifest.load(contentsOf: Self.defaultManifest)
        let ids = manifest.entries.map(\.id)
        #expect(Set(ids) == Self.builtInIDs)
        #expect(Set(ids).count == ids.count)
        let catalog = try BuiltInStatistics.catalog()
        #expect(Set(catalog.ids).subtracting(ids).isEmpty, "built-in statistics missing from default.yaml")
    }

    @Test func theYogaExampleRunsASecondStreak() throws {
        let manifest = try Manifest.load(contentsOf: Self.config.appendingPathComponent("examples/yoga-only.yaml"))
        #expect(manifest.environment.kinds == ["yoga"])
        let streak = try #require(manifest.entries.first { $0.name == "current_streak_10m" })
        #expect(streak.id == "current_streak")
        #expect(streak.parameters["minimum_duration"]?.text == "10m")
    }
}
