import CareStatistics
import Foundation
import StillpointCatalog
import StillpointManifest
import StillpointStatistics
import Testing

/// The care statistics in a manifest: registered by `modules:`, their parameters checked where they are written.
@Suite("Care statistics in a manifest")
struct CareManifestTests {
    static let modules = ModuleCatalog([CareStatisticsModule.self], origin: .addedBy("care-stillpoint"))

    @Test func theExampleManifestIsValidForTheTool() throws {
        let manifest = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("care.yaml")
        var tool = ModuleCatalog(BuiltInStatistics.modules)
        tool.add([CareStatisticsModule.self], origin: .addedBy("care-stillpoint"))
        #expect(Manifest.validate(contentsOf: manifest, modules: tool).map(\.description) == [])
        let registered = try Manifest.load(contentsOf: manifest).registeredModules(from: tool)
        #expect(registered.map(\.name) == ["TotalStatistics", "StreakStatistics", "CareStatistics"])
        #expect(registered.map(\.origin) == [.builtIn, .builtIn, .addedBy("care-stillpoint")])
    }

    @Test func outOfRangeParametersAreRefusedWhereTheyAreWritten() {
        let errors = Manifest.validate(yaml: """
            modules: [CareStatistics]
            statistics:
              - id: recent_time
                parameters: {days: 0}
              - id: weekly_time_trend
                parameters: {weeks: 500}
            """, file: "care.yaml", modules: Self.modules)
        #expect(errors.map(\.locatedMessage) == [
            "care.yaml:4:24: parameter 'days' of 'recent_time': expected a number of days from 1 to 366, got 0",
            "care.yaml:6:25: parameter 'weeks' of 'weekly_time_trend': expected a number of weeks from 2 to 104, got 500",
        ])
    }

    @Test func aMistypedModuleNameSuggestsTheModule() {
        let errors = Manifest.validate(yaml: "modules: [CareStatistic]\nstatistics: [longest_gap]\n", file: "care.yaml", modules: Self.modules)
        #expect(errors.first?.locatedMessage.hasPrefix("care.yaml:1:11: there is no statistic module 'CareStatistic'; did you mean 'CareStatistics'?") == true)
    }
}
