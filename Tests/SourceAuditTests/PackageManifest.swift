import Foundation
import StillpointChildProcess

/// A package's manifest as `swift package dump-package` prints it: its targets, what each depends on, and its
/// products; enough to follow a target's dependencies to the end.
struct PackageManifest {
    /// A target's dependency: another target of the package, or a product of another package.
    enum Dependency: Hashable {
        case target(String)
        case product(String, package: String)
    }

    let targets: [String: [Dependency]]
    /// Each library or executable product and the targets it builds.
    let products: [String: [String]]

    /// Reads the manifest of the package at `directory`, evaluated by the toolchain the tests run with.
    ///
    /// The scratch folder is a temporary one, so that the command does not wait on the lock of the build that
    /// runs these tests.
    init(packageAt directory: URL) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-manifest-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = try Self.swift(["package", "dump-package", "--package-path", directory.path, "--scratch-path", scratch.path])
        guard let json = try JSONSerialization.jsonObject(with: output) as? [String: Any],
              let targets = json["targets"] as? [[String: Any]], let products = json["products"] as? [[String: Any]]
        else { throw ManifestReadError(directory: directory.path, problem: "dump-package printed no targets and products") }
        var dependencies: [String: [Dependency]] = [:]
        for target in targets {
            guard let name = target["name"] as? String else { continue }
            dependencies[name] = (target["dependencies"] as? [[String: [Any]]] ?? []).compactMap(Self.dependency)
        }
        self.targets = dependencies
        self.products = Dictionary(products.compactMap { product in
            (product["name"] as? String).map { ($0, product["targets"] as? [String] ?? []) }
        }, uniquingKeysWith: { first, _ in first })
    }

    /// `{"byName": ["X", condition]}`, `{"target": ["X", condition]}` or `{"product": ["X", "package", …]}`.
    private static func dependency(_ entry: [String: [Any]]) -> Dependency? {
        if let name = (entry["byName"] ?? entry["target"])?.first as? String { return .target(name) }
        if let product = entry["product"], let name = product.first as? String, product.count > 1, let package = product[1] as? String {
            return .product(name, package: package)
        }
        return nil
    }

    /// Everything `target` depends on, directly or through other targets of this package.
    ///
    /// A name that is no target of this package (a product named by name alone) is kept as a target name.
    func closure(of target: String) -> Set<Dependency> {
        var seen: Set<Dependency> = []
        var pending = targets[target] ?? []
        while let next = pending.popLast() {
            guard seen.insert(next).inserted else { continue }
            if case .target(let name) = next { pending += targets[name] ?? [] }
        }
        return seen
    }

    /// Runs `swift` with `arguments` and returns what it printed; throws with its error output if it fails.
    static func swift(_ arguments: [String], in directory: URL? = nil) throws -> Data {
        // The whole graph, also when the tests run in CI's pass that leaves the HTTP service out (Package.swift).
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "STILLPOINT_WITHOUT_SERVER" }
        let result = try ChildProcess("/usr/bin/env", ["swift"] + arguments, environment: environment, directory: directory?.path,
                                      standardOutput: .collected, standardError: .collected).waitForResult()
        guard result.status == 0 else {
            throw ManifestReadError(directory: directory?.path ?? arguments.joined(separator: " "), problem: result.standardError)
        }
        return Data(result.standardOutput.utf8)
    }
}
