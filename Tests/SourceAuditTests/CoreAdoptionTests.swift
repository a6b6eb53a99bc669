import Foundation
import Testing

/// An app that depends on the core and a store gets the core's dependencies alone: a package of its own that
/// depends on Stillpoint by path with `traits: []`, resolved as SwiftPM resolves it, holds GRDB and none of the
/// report application's packages (Yams, ZIPFoundation, the argument parser, swift-log, the tests' property
/// library, and the server's Hummingbird, service lifecycle and swift-crypto), so none of them is fetched or built and no build prints their warnings.
@Suite("core adoption")
struct CoreAdoptionTests {
    /// The packages only the report application (the `Report` trait, on by default) brings.
    static let applicationPackages: Set<String> = ["yams", "zipfoundation", "swift-argument-parser", "swift-log", "swift-property-based",
                                                   "hummingbird", "swift-service-lifecycle", "swift-crypto", "swift-nio"]

    /// The identities of every package `swift package show-dependencies` lists under `node`, at any depth.
    static func identities(in node: [String: Any]) -> Set<String> {
        var found: Set<String> = []
        for child in node["dependencies"] as? [[String: Any]] ?? [] {
            if let identity = child["identity"] as? String { found.insert(identity.lowercased()) }
            found.formUnion(identities(in: child))
        }
        return found
    }

    /// The packages an app with `dependency` (a `.package(...)` line) resolves, from a scratch folder of its own.
    static func resolvedPackages(dependency: String) throws -> Set<String> {
        let app = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: app) }
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        try """
            // swift-tools-version:6.1
            import PackageDescription

            let package = Package(
                name: "App",
                platforms: [.macOS(.v15)],
                dependencies: [\(dependency)],
                targets: [
                    .executableTarget(name: "App", dependencies: [
                        .product(name: "StillpointCore", package: "Stillpoint"),
                        .product(name: "StillpointSQLite", package: "Stillpoint"),
                    ]),
                ]
            )
            """.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import StillpointCore\nimport StillpointSQLite\n".write(to: app.appendingPathComponent("Sources/App/main.swift"),
                                                                      atomically: true, encoding: .utf8)
        let output = try PackageManifest.swift(["package", "--scratch-path", app.appendingPathComponent(".build").path,
                                                "show-dependencies", "--format", "json"], in: app)
        // The JSON follows the lines SwiftPM prints while it resolves.
        guard let start = output.firstIndex(of: UInt8(ascii: "{")),
              let graph = try JSONSerialization.jsonObject(with: output[start...]) as? [String: Any]
        else { throw ManifestReadError(directory: app.path, problem: "show-dependencies printed no graph") }
        return identities(in: graph)
    }

    @Test func theCoreAndSQLiteResolveGRDBAlone() throws {
        let path = TrapAuditTests.repository.path
        let packages = try Self.resolvedPackages(dependency: ".package(name: \"Stillpoint\", path: \"\(path)\", traits: [])")
        #expect(packages.contains("grdb.swift"), "\(packages)")
        #expect(packages.isDisjoint(with: Self.applicationPackages), "the core's graph holds \(packages.intersection(Self.applicationPackages))")
    }
}
