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

    /// The definitions and the JSON report's table are written by hand: each names every built-in statistic.
    @Test(arguments: ["docs/statistics.md", "docs/json-report.md"])
    func everyStatisticIsDocumented(in document: String) throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        for id in try BuiltInStatistics.catalog().ids {
            #expect(text.contains("`\(id)`"), "\(document) does not define \(id)")
        }
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
