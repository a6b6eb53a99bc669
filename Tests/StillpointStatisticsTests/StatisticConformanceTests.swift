import Foundation
import StillpointCatalog
import StillpointTestSupport
import Testing
@testable import StillpointStatistics

/// The contract every statistic of the catalog keeps (``StatisticConformance``, which modules from outside
/// Stillpoint run too): it describes itself, its examples hold, and it reads only the parameters it
/// describes, so that a manifest can catch any other.
@Suite("Statistic conformance")
struct StatisticConformanceTests {
    static let catalog = try? BuiltInStatistics.catalog()
    static let ids = catalog?.ids ?? []

    static func statistic(_ id: String) throws -> any Statistic {
        try #require(catalog).statistic(id: id)
    }

    @Test func theCatalogHasStatistics() throws {
        _ = try BuiltInStatistics.catalog()
        #expect(!Self.ids.isEmpty)
    }

    @Test("Every module's ids are snake_case and unique", arguments: BuiltInStatistics.modules.map { $0.name })
    func idsAreSnakeCaseAndUnique(_ name: String) throws {
        let module = try #require(BuiltInStatistics.modules.first { $0.name == name })
        #expect(StatisticConformance.idProblems(of: module.statistics) == [])
    }

    @Test("Every example holds", arguments: ids)
    func examplesHold(_ id: String) async throws {
        #expect(await StatisticConformance.exampleProblems(of: try Self.statistic(id)) == [])
    }

    @Test("Every statistic describes itself", arguments: ids)
    func describesItself(_ id: String) throws {
        #expect(StatisticConformance.descriptionProblems(of: try Self.statistic(id)) == [])
    }

    @Test("Every statistic reads only the parameters it describes", arguments: ids)
    func readsOnlyDescribedParameters(_ id: String) throws {
        #expect(StatisticConformance.parameterReadingProblems(of: try Self.statistic(id)) == [])
    }

    @Test func theReadLogSeesWhatAStatisticReads() throws {
        let log = ParameterReadLog()
        var parameters = StatisticParameters(statistic: "zone_echo", values: ["not_described": "1"])
        parameters.readLog = log
        _ = try ZoneEcho().prepare(parameters)
        #expect(log.names == ["time_zone", "day_starts_at", "as_of"])
    }

    @Test("A manifest catches an unknown parameter of every statistic", arguments: ids)
    func aManifestCatchesAnUnknownParameter(_ id: String) throws {
        #expect(StatisticConformance.unknownParameterProblems(of: try Self.statistic(id)) == [])
    }

    @Test("Every statistic prepares with its defaults", arguments: ids)
    func preparesWithDefaults(_ id: String) async throws {
        #expect(await StatisticConformance.defaultsProblems(of: try Self.statistic(id)) == [])
    }

    @Test func theChecksFindABrokenStatistic() async {
        /// Reads a parameter it does not describe, has one example that does not hold, and a bad id.
        struct Broken: Statistic {
            let id = "Broken-Statistic"
            var description: StatisticDescription {
                StatisticDescription(name: "Broken", summary: "",
                                     examples: [StatisticExample("one", sessions: [], expected: .quantity(2, .count))])
            }

            func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
                _ = try parameters.integer("secret")
                return PreparedStatistic { _ in StatisticResult(.quantity(1, .count)) }
            }
        }
        let problems = await StatisticConformance.problems(of: Broken())
        #expect(StatisticConformance.idProblems(of: [Broken(), Broken()]) == [
            "'Broken-Statistic' is not a snake_case id", "'Broken-Statistic' is not a snake_case id",
            "two statistics have the id 'Broken-Statistic'",
        ])
        #expect(problems.contains("Broken-Statistic has no summary"))
        #expect(problems.contains("Broken-Statistic has fewer than two examples"))
        #expect(problems.contains { $0.hasPrefix("Broken-Statistic: the example 'one' gives") && $0.contains(", not ") })
        #expect(problems.contains("Broken-Statistic reads parameters it does not describe: [\"secret\"]"))
    }
}
