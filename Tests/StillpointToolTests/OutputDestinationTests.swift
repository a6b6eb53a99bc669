import Foundation
import StillpointChildProcess
import Testing

/// `--output` writes what it names: `-` is standard output, a link is written through and stays a link, a device
/// or a pipe is written in place, and only a regular file is replaced through a temporary file.
@Suite("output destinations", .serialized)
struct OutputDestinationTests {
    @Test func aDashIsStandardOutput() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let export = try await tool.run(["export", "--store", store, "--output", "-", "--columns", "kind"])
        #expect(export.status == 0, "\(export.standardError)")
        #expect(export.standardOutput.hasPrefix("kind\r\n"))
        #expect(export.standardOutput.split(whereSeparator: \.isNewline).count == 1_501)
        #expect(export.standardError.contains("exported 1500 rows to standard output"))
        let report = try await tool.run(["report", "--store", store, "--format", "json", "--output", "-"])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("\"session_count\""))
        #expect(!FileManager.default.fileExists(atPath: tool.path("-")))
    }

    @Test func standardOutputOpenForAppendingKeepsWhatItHeld() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let log = tool.path("log.txt")
        try "earlier line\n".write(toFile: log, atomically: false, encoding: .utf8)
        for output in ["-", "/dev/stdout"] {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            try handle.seekToEnd()
            let export = try tool.start(["export", "--store", store, "--output", output, "--columns", "kind"],
                                        standardOutput: .descriptor(handle.fileDescriptor), standardError: .null)
            let status = export.waitUntilExit()
            try handle.close()
            #expect(status == .exited(0))
        }
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.hasPrefix("earlier line\nkind\r\n"))
        #expect(text.split(whereSeparator: \.isNewline).count == 1 + 2 * 1_501)
    }

    @Test func aLinkIsWrittenThroughAndStaysALink() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        try FileManager.default.createDirectory(atPath: tool.path("reports"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: tool.path("latest.csv"), withDestinationPath: "reports/2025.csv")
        try FileManager.default.createSymbolicLink(atPath: tool.path("latest.json"), withDestinationPath: tool.path("reports/2025.json"))
        #expect(try await tool.run(["export", "--store", store, "--output", "latest.csv"]).status == 0)
        #expect(try await tool.run(["report", "--store", store, "--format", "json", "--output", "latest.json"]).status == 0)
        for (link, target) in [("latest.csv", "reports/2025.csv"), ("latest.json", tool.path("reports/2025.json"))] {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: tool.path(link)) == target)
        }
        #expect(try String(contentsOfFile: tool.path("reports/2025.csv"), encoding: .utf8).hasPrefix("start,duration"))
        #expect(try String(contentsOfFile: tool.path("reports/2025.json"), encoding: .utf8).contains("\"session_count\""))
    }

    @Test func devicesAndPipesAreWrittenInPlace() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let export = try await tool.run(["export", "--store", store, "--output", "/dev/null"])
        #expect(export.status == 0, "\(export.standardError)")
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR, "/dev/null is still a device")

        let pipe = tool.path("pipe")
        #expect(mkfifo(pipe, 0o600) == 0)
        let reader = try ChildProcess("/bin/sh", ["-c", "wc -l < \"$0\" > \"$0.count\"", pipe])
        let result = try await tool.run(["report", "--store", store, "--format", "csv", "--output", pipe])
        reader.waitUntilExit()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(stat(pipe, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the pipe is still a pipe")
        let lines = try String(contentsOfFile: pipe + ".count", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect((Int(lines) ?? 0) > 10)
    }

    @Test func aRegularFileIsReplacedWhole() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let output = tool.path("out.csv")
        try String(repeating: "old line\n", count: 10_000).write(toFile: output, atomically: true, encoding: .utf8)
        #expect(try await tool.run(["export", "--store", store, "--output", output, "--columns", "kind"]).status == 0)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(!text.contains("old line"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tool.directory.path).filter { $0.hasSuffix(".partial") }.isEmpty)
    }
}
