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

    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Result {
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
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read both pipes while the tool runs, so that a large report cannot fill a pipe and stall it.
        let errorData = LockedData()
        let errorReader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
        errorReader.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errorData.isSet { usleep(1_000) }
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData.value, as: UTF8.self))
    }
}

/// Data handed from a reading thread.
final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?

    func set(_ value: Data) { lock.withLock { data = value } }
    var isSet: Bool { lock.withLock { data != nil } }
    var value: Data { lock.withLock { data ?? Data() } }
}
