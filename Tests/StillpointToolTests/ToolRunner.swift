import Foundation

/// Runs the built `stillpoint` tool as a person would, in a temporary home of its own.
struct ToolRunner {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

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

    /// The tool, ready to launch with `arguments` in this runner's folder and home.
    func process(_ arguments: [String], environment extra: [String: String] = [:]) -> Process {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["STILLPOINT_HOME"] = path("home")
        environment["TZ"] = "UTC"
        environment["NO_COLOR"] = "1"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.currentDirectoryURL = directory
        return process
    }

    /// Runs the tool to its end.
    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Result {
        try Self.run(process(arguments, environment: extra))
    }

    /// Runs `process` to its end, collecting what it writes.
    static func run(_ process: Process) throws -> Result {
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes while the tool runs, so that a large report cannot fill a pipe and stall it.
        let outputData = OutputCollector(reading: output.fileHandleForReading)
        let errorData = OutputCollector(reading: error.fileHandleForReading)
        process.waitUntilExit()
        while !(outputData.ended && errorData.ended) { usleep(1_000) }
        return Result(status: process.terminationStatus, standardOutput: outputData.text, standardError: errorData.text)
    }
}
