import Foundation
import StillpointChildProcess
@testable import StillpointServer

/// Runs a built executable of the package (`stillpoint`, `stillpoint-server`), found beside the test bundle in
/// the build products, with a home of its own.
enum ToolProcess {
    /// The repository the tests were built from.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built executable `name`.
    static func executable(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    /// A new empty folder in the temporary folder.
    static func scratchDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-server-tests-\(UUID().uuidString)")
            .appendingPathComponent("config")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Starts `name` with `arguments`, in UTC, without colour, with `STILLPOINT_HOME` in a folder of its own.
    static func start(_ name: String, _ arguments: [String], environment extra: [String: String] = [:],
                      standardOutput: ChildProcess.Output = .collected, standardError: ChildProcess.Output = .collected) throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["STILLPOINT_HOME"] = try scratchDirectory().path
        environment["TZ"] = "UTC"
        environment["NO_COLOR"] = "1"
        environment[AdminToken.environmentVariable] = nil
        for (key, value) in extra { environment[key] = value }
        return try ChildProcess(executable(name).path, arguments, environment: environment,
                                standardOutput: standardOutput, standardError: standardError)
    }

    /// Runs the `stillpoint` tool (or the executable `name`) to its end, without holding a thread while it runs.
    static func run(_ arguments: [String], tool name: String = "stillpoint", environment: [String: String] = [:]) async throws -> ChildProcess.Result {
        try await start(name, arguments, environment: environment).result()
    }
}
