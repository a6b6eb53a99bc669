import Foundation
import StillpointCatalog
import Testing
@testable import StillpointStatistics

/// The contract every statistic of the catalog keeps: it describes itself, its examples hold, and it reads
/// only the parameters it describes, so that a manifest can catch any other.
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

    @Test("Every example holds", arguments: ids)
    func examplesHold(_ id: String) async throws {
        let statistic = try Self.statistic(id)
        for example in statistic.description.examples {
            let result = try await example.run(statistic)
            #expect(result.value == example.expected, "\(id): \(example.summary)")
        }
    }

    @Test("Every statistic describes itself", arguments: ids)
    func describesItself(_ id: String) throws {
        let description = try Self.statistic(id).description
        #expect(!description.name.trimmingCharacters(in: .whitespaces).isEmpty, "\(id) has no name")
        #expect(!description.summary.trimmingCharacters(in: .whitespaces).isEmpty, "\(id) has no summary")
        #expect(description.examples.count >= 2, "\(id) has fewer than two examples")
        #expect(description.examples.contains { $0.sessions.isEmpty }, "\(id) has no example on an empty log")
        let names = description.parameters.map(\.name)
        #expect(Set(names).count == names.count, "\(id) describes a parameter twice: \(names)")
        for parameter in description.parameters {
            #expect(ManifestReader.isSnakeCase(parameter.name), "\(id): parameter '\(parameter.name)' is not snake_case")
            #expect(!parameter.type.isEmpty && !parameter.meaning.isEmpty, "\(id): parameter '\(parameter.name)' is not explained")
        }
        for example in description.examples {
            let undescribed = Set(example.parameters.keys).subtracting(names)
            #expect(undescribed.isEmpty, "\(id): the example '\(example.summary)' gives undescribed parameters \(undescribed.sorted())")
        }
    }

    @Test("Every statistic reads only the parameters it describes", arguments: ids)
    func readsOnlyDescribedParameters(_ id: String) throws {
        let statistic = try Self.statistic(id)
        let described = Set(statistic.description.parameters.map(\.name))
        let settings = [[:]] + statistic.description.examples.map(\.parameters)
        for values in settings {
            let log = ParameterReadLog()
            var parameters = StatisticParameters(statistic: id, values: values)
            parameters.readLog = log
            _ = try statistic.prepare(parameters)
            let undescribed = log.names.subtracting(described)
            #expect(undescribed.isEmpty, "\(id) reads parameters it does not describe: \(undescribed.sorted())")
        }
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
        let manifest = try Manifest(yaml: "statistics:\n  - id: \(id)\n    parameters: {not_a_parameter: 1}\n")
        let error = #expect(throws: ManifestErrors.self) { try manifest.prepare(catalog: try #require(Self.catalog)) }
        #expect(error?.errors.map(\.location?.line) == [3])
        #expect(error?.errors.first?.message.hasPrefix("'\(id)' has no parameter 'not_a_parameter'") == true)
    }

    @Test("Every statistic prepares with its defaults", arguments: ids)
    func preparesWithDefaults(_ id: String) async throws {
        let manifest = try Manifest(yaml: "statistics: [\(id)]")
        let entries = try manifest.prepare(catalog: try #require(Self.catalog))
        _ = try await TestStore.run(entries, in: try await TestStore.container([]))
    }
}
