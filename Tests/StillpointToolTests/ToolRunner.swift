import Foundation
import StillpointChildProcess

/// Runs the built `stillpoint` tool as a person would, in a temporary home of its own.
struct ToolRunner {
    typealias Result = ChildProcess.Result

    /// A folder for stores and outputs, and `STILLPOINT_HOME`, removed by `cleanUp()`.
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The repository the tests were built from.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func repositoryPath(_ relative: String) -> String { repository.appendingPathComponent(relative).path }

    /// The tool, beside the test bundle in the build products.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("stillpoint")

    /// Starts the tool with `arguments` in this runner's folder and home (or `executable`, such as a shell that
    /// runs the tool).
    func start(_ arguments: [String], executable: String = Self.executable.path, environment extra: [String: String] = [:],
               standardInput: ChildProcess.Input = .null, standardOutput: ChildProcess.Output = .collected,
               standardError: ChildProcess.Output = .collected) throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["STILLPOINT_HOME"] = path("home")
        environment["TZ"] = "UTC"
        environment["NO_COLOR"] = "1"
        for (key, value) in extra { environment[key] = value }
        return try ChildProcess(executable, arguments, environment: environment, directory: directory.path,
                                standardInput: standardInput, standardOutput: standardOutput, standardError: standardError)
    }

    /// Runs the tool to its end. It waits without holding a thread of the shared pool: the suite's other tests (a
    /// server's, a live report's) go on meanwhile.
    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> Result {
        try await start(arguments, environment: extra).result()
    }
}
