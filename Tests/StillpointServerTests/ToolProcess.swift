import Foundation
@testable import StillpointServer

/// Runs a built executable of the package (`stillpoint`, `stillpoint-server`), found beside the test bundle in
/// the build products, with a home of its own.
enum ToolProcess {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

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

    /// `name` ready to launch with `arguments`, in UTC, without colour, with `STILLPOINT_HOME` in a folder of its own.
    static func process(_ name: String, _ arguments: [String], environment extra: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = executable(name)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["STILLPOINT_HOME"] = try scratchDirectory().path
        environment["TZ"] = "UTC"
        environment["NO_COLOR"] = "1"
        environment[AdminToken.environmentVariable] = nil
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        return process
    }

    /// Runs the `stillpoint` tool (or the executable `name`) to its end.
    static func run(_ arguments: [String], tool name: String = "stillpoint", environment: [String: String] = [:]) throws -> Result {
        let process = try process(name, arguments, environment: environment)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tool-out-\(UUID().uuidString)")
        let error = FileManager.default.temporaryDirectory.appendingPathComponent("tool-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: error.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: error)
        }
        // Files rather than pipes: a large report cannot fill a pipe and stall the tool.
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: error)
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, standardOutput: try String(contentsOf: output, encoding: .utf8),
                      standardError: try String(contentsOf: error, encoding: .utf8))
    }
}
