import Foundation
@testable import StillpointManifest
@testable import StillpointStatistics
import Testing

/// A second module for the registration tests: one id of its own, and `fake_count` again, which
/// `TestStatisticsModule` defines too.
enum OverlappingTestStatisticsModule: StatisticModule {
    static let statistics: [any Statistic] = [FixedValue(id: "fixed_value"), FixedValue(id: "fake_count")]
}

/// A statistic that always has one value, for modules that only need ids.
struct FixedValue: Statistic {
    let id: String
    var description: StatisticDescription {
        StatisticDescription(name: "Fixed value", summary: "Always 1.",
                             examples: [StatisticExample("always 1", sessions: [], expected: .quantity(1, .count))])
    }

    func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        PreparedStatistic { _ in StatisticResult(.quantity(1, .count)) }
    }
}

@Suite("Module registration")
struct ModuleRegistrationTests {
    /// The test module, built in, and the overlapping one, added by a tool.
    static let modules: ModuleCatalog = {
        var modules = ModuleCatalog([TestStatisticsModule.self])
        modules.add([OverlappingTestStatisticsModule.self], origin: .addedBy("test-tool"))
        return modules
    }()

    static func errors(_ yaml: String, modules: ModuleCatalog = Self.modules) -> [ManifestError] {
        Manifest.validate(yaml: yaml, file: "test.yaml", modules: modules)
    }

    @Test func readsTheModulesList() throws {
        let manifest = try Manifest(yaml: "modules: [TestStatistics, OverlappingTestStatistics]\nstatistics: [fake_count]\n")
        #expect(manifest.modules == ["TestStatistics", "OverlappingTestStatistics"])
        #expect(try Manifest(yaml: "statistics: [fake_count]").modules == nil)
    }

    @Test func registeredModulesResolveTheirIDs() throws {
        let manifest = try Manifest(yaml: "modules: [OverlappingTestStatistics]\nstatistics: [fake_count, fixed_value]\n")
        let entries = try manifest.prepare(modules: Self.modules)
        #expect(entries.map(\.id) == ["fake_count", "fixed_value"])
        // `fake_count` is the registered module's, not the test module's that has the same id.
        #expect(entries.first?.statistic is FixedValue)
        #expect(manifest.registeredModules(from: Self.modules).map(\.name) == ["OverlappingTestStatistics"])
    }

    @Test func withoutTheKeyEveryModuleIsRegistered() throws {
        var modules = ModuleCatalog([TestStatisticsModule.self])
        modules.add(ModuleCatalog.Module(name: "Extra", origin: .addedBy("test-tool"), statistics: [FixedValue(id: "fixed_value")]))
        let manifest = try Manifest(yaml: "statistics: [zone_echo, fixed_value]\n")
        #expect(try manifest.prepare(modules: modules).map(\.id) == ["zone_echo", "fixed_value"])
        #expect(manifest.registeredModules(from: modules).map(\.name) == ["TestStatistics", "Extra"])
    }

    @Test func anUnknownModuleIsALocatedErrorWithASuggestion() {
        let errors = Self.errors("modules:\n  - TestStatistics\n  - OverlapingTestStatistics\nstatistics: [fake_count]\n")
        #expect(errors.map(\.location) == [SourceLocation(file: "test.yaml", line: 3, column: 5)])
        #expect(errors.first?.locatedMessage == "test.yaml:3:5: there is no statistic module 'OverlapingTestStatistics'; "
                + "did you mean 'OverlappingTestStatistics'? The modules are: TestStatistics, OverlappingTestStatistics "
                + "(`stillpoint statistics` lists their statistics)")
        #expect(errors.first?.sourceLine == "  - OverlapingTestStatistics")
    }

    @Test func twoRegisteredModulesWithOneIDAreAnErrorNamingBoth() {
        let errors = Self.errors("modules: [TestStatistics, OverlappingTestStatistics]\nstatistics: [zone_echo]\n")
        #expect(errors.map(\.locatedMessage) == [
            "test.yaml:1:27: the modules 'TestStatistics' and 'OverlappingTestStatistics' both define the statistic "
                + "'fake_count', so an entry could mean either; register only one of them under `modules:`",
        ])
    }

    @Test func withoutTheKeyTwoModulesWithOneIDAreAnErrorAtTheTop() {
        let errors = Self.errors("version: 1\nstatistics: [zone_echo]\n")
        #expect(errors.map(\.location) == [SourceLocation(file: "test.yaml", line: 1, column: 1)])
        #expect(errors.first?.message.hasPrefix("the modules 'TestStatistics' and 'OverlappingTestStatistics' both define "
                                                + "the statistic 'fake_count', and without a `modules:` list every module is registered") == true)
    }

    @Test func anIDOfAModuleLeftOutSaysWhichModuleToRegister() {
        let errors = Self.errors("modules: [TestStatistics]\nstatistics:\n  - fixed_value\n")
        #expect(errors.map(\.locatedMessage) == [
            "test.yaml:3:5: the statistic 'fixed_value' is in the module 'OverlappingTestStatistics', which `modules:` "
                + "does not register; add it to the list",
        ])
    }

    @Test func aModuleListedTwiceOrNotAsNamesIsAnError() {
        let twice = Self.errors("modules: [TestStatistics, TestStatistics]\nstatistics: [fake_count]\n")
        #expect(twice.map(\.locatedMessage) == ["test.yaml:1:27: the module 'TestStatistics' is listed twice (line 1); list each module once"])
        let single = ModuleCatalog([TestStatisticsModule.self])
        let mapping = Self.errors("modules: {TestStatistics: yes}\nstatistics: [fake_count]\n", modules: single)
        #expect(mapping.first?.location == SourceLocation(file: "test.yaml", line: 1, column: 10))
        #expect(mapping.first?.message.hasPrefix("modules expects a list of statistic module names") == true)
        let empty = Self.errors("modules:\nstatistics: [fake_count]\n", modules: single)
        #expect(empty.first?.message.hasPrefix("modules has no value") == true)
    }

    @Test func aCatalogOfModulesHonoursTheListToo() throws {
        let catalog = try StatisticCatalog(modules: [TestStatisticsModule.self])
        let errors = Manifest.validate(yaml: "modules: [TestStatistic]\nstatistics: [fake_count]\n", file: "test.yaml", catalog: catalog)
        #expect(errors.map(\.locatedMessage) == [
            "test.yaml:1:11: there is no statistic module 'TestStatistic'; did you mean 'TestStatistics'? The modules are: "
                + "TestStatistics (`stillpoint statistics` lists their statistics)",
            "test.yaml:2:14: the statistic 'fake_count' is in the module 'TestStatistics', which `modules:` does not register; add it to the list",
        ])
        let manifest = try Manifest(yaml: "modules: [TestStatistics]\nstatistics: [fake_count]\n")
        #expect(try manifest.prepare(catalog: catalog).map(\.id) == ["fake_count"])
    }

    @Test func customStatisticsNeedNoModule() throws {
        let manifest = try Manifest(yaml: """
            modules: [OverlappingTestStatistics]
            custom_statistics:
              long_sessions: {function: count, where: "duration >= 3600"}
            statistics: [long_sessions, fixed_value]
            """)
        #expect(try manifest.prepare(modules: Self.modules).map(\.id) == ["long_sessions", "fixed_value"])
    }

    @Test func originsDescribeThemselves() {
        #expect(ModuleOrigin.builtIn.description == "built in")
        #expect(ModuleOrigin.addedBy("care-stillpoint").description == "from care-stillpoint")
        #expect(Self.modules.modules.map(\.origin) == [.builtIn, .addedBy("test-tool")])
        #expect(Self.modules.names == ["TestStatistics", "OverlappingTestStatistics"])
    }
}
