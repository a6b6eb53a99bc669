import Foundation
import Testing

/// The feature modules stand on the core alone: no statistic module, the practice log, the report or the
/// example's statistics link SQLite, so a team's statistic module outside the package does not either.
@Suite("package graph")
struct PackageGraphTests {
    static let repository = TrapAuditTests.repository

    /// What none of the feature modules may reach: the SQLite store and the library under it.
    static func isSQLite(_ dependency: PackageManifest.Dependency) -> Bool {
        switch dependency {
        case .target(let name): name == "StillpointSQLite" || name == "GRDB"
        case .product(_, let package): package.lowercased() == "grdb.swift"
        }
    }

    /// The statistic modules: every folder under `Plugins/`.
    static func statisticModules() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Plugins").path)
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func featureModulesLinkNoSQLite() throws {
        let manifest = try PackageManifest(packageAt: Self.repository)
        let modules = ["PracticeLog", "StillpointStatistics", "StillpointReport"] + (try Self.statisticModules())
        for module in modules {
            #expect(manifest.targets[module] != nil, "\(module) is no target of Package.swift")
            let reached = manifest.closure(of: module).filter(Self.isSQLite)
            #expect(reached.isEmpty, "\(module) depends on \(reached), directly or through another module; it must build on StillpointCore alone")
        }
    }

    /// The manifest reader and YAML are the report's, not a statistic author's: no statistic module compiles them.
    @Test func statisticModulesCompileNoManifestReader() throws {
        let manifest = try PackageManifest(packageAt: Self.repository)
        #expect(manifest.closure(of: "StillpointManifest").contains(.product("Yams", package: "Yams")))
        for module in ["StillpointStatistics"] + (try Self.statisticModules()) {
            let reached = manifest.closure(of: module).filter { dependency in
                dependency == .target("StillpointManifest") || dependency == .product("Yams", package: "Yams")
            }
            #expect(reached.isEmpty, "\(module) depends on \(reached); the manifest belongs to StillpointManifest alone")
        }
    }

    @Test func theExampleStatisticModuleLinksNoSQLite() throws {
        let stillpoint = try PackageManifest(packageAt: Self.repository)
        let example = try PackageManifest(packageAt: Self.repository.appendingPathComponent("Examples/CareStatistics"))
        var reached: Set<PackageManifest.Dependency> = []
        for dependency in example.closure(of: "CareStatistics") {
            reached.insert(dependency)
            // A product of Stillpoint: follow its targets through Stillpoint's manifest.
            if case .product(let product, "Stillpoint") = dependency {
                for target in stillpoint.products[product] ?? [] {
                    reached.insert(.target(target))
                    reached.formUnion(stillpoint.closure(of: target))
                }
            }
        }
        #expect(reached.contains(.target("StillpointStatistics")), "the example's statistics are read through StillpointStatistics")
        #expect(reached.filter(Self.isSQLite).isEmpty, "CareStatistics depends on \(reached.filter(Self.isSQLite))")
    }

    /// What only the HTTP service may reach: Hummingbird, the service lifecycle and swift-crypto.
    static func isHTTPStack(_ dependency: PackageManifest.Dependency) -> Bool {
        switch dependency {
        case .target(let name): name == "StillpointServer" || name == "Hummingbird"
        case .product(_, let package): ["hummingbird", "swift-service-lifecycle", "swift-crypto"].contains(package.lowercased())
        }
    }

    /// Building `stillpoint` (the README's first command) builds no HTTP stack, and neither does the core, its
    /// stores or the report: the server is a product of its own.
    @Test func onlyTheServerLinksTheHTTPStack() throws {
        let manifest = try PackageManifest(packageAt: Self.repository)
        #expect(manifest.products["stillpoint-server"] == ["stillpoint-server"])
        #expect(manifest.closure(of: "stillpoint-server").contains(.target("StillpointServer")))
        #expect(manifest.closure(of: "StillpointServer").contains(.product("Hummingbird", package: "hummingbird")))
        for module in ["stillpoint", "StillpointTool", "StillpointCore", "StillpointSQLite", "StillpointPostgres", "PracticeLog",
                       "StillpointReport", "StillpointDefaultStore"] {
            #expect(manifest.targets[module] != nil, "\(module) is no target of Package.swift")
            let reached = manifest.closure(of: module).filter(Self.isHTTPStack)
            #expect(reached.isEmpty, "\(module) depends on \(reached); only stillpoint-server may link the HTTP stack")
        }
        // The server links no command-line code.
        #expect(!manifest.closure(of: "StillpointServer").contains(.target("StillpointTool")))
    }
}
