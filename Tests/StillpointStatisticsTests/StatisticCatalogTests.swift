import Foundation
import StillpointCatalog
import Testing
@testable import StillpointStatistics

@Suite("StatisticCatalog")
struct StatisticCatalogTests {
    /// The folders under `Plugins/`, read from the repository this test was built from.
    static func pluginFolders() throws -> [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let plugins = root.appendingPathComponent("Plugins")
        return try FileManager.default.contentsOfDirectory(atPath: plugins.path).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: plugins.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted()
    }

    @Test func everyPluginFolderIsInTheCatalog() throws {
        let folders = try Self.pluginFolders()
        #expect(!folders.isEmpty)
        #expect(BuiltInStatistics.modules.map { $0.name }.sorted() == folders)
    }

    @Test func idsAreUniqueAndSnakeCase() throws {
        let catalog = try BuiltInStatistics.catalog()
        #expect(Set(catalog.ids).count == catalog.ids.count)
        for id in catalog.ids {
            #expect(id.range(of: "^[a-z][a-z0-9]*(_[a-z0-9]+)*$", options: .regularExpression) != nil, "\(id)")
        }
    }

    @Test func aDuplicateIDIsRejected() throws {
        struct Fake: Statistic {
            let id = "fake"
            let description = StatisticDescription(name: "Fake", summary: "A statistic for this test.")
            func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
                PreparedStatistic { _ in StatisticResult(.none) }
            }
        }
        var catalog = try StatisticCatalog(modules: [])
        try catalog.add(Fake())
        #expect(throws: CatalogError.duplicateID("fake")) { try catalog.add(Fake()) }
        #expect(throws: CatalogError.unknownID("fak", suggestion: "fake")) { try catalog.statistic(id: "fak") }
    }
}
