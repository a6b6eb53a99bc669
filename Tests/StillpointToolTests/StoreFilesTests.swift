import Foundation
import Testing

/// An output never lands on the store it was made from, however its path is spelt.
@Suite("outputs never overwrite the store", .serialized)
struct StoreFilesTests {
    @Test func exportAndReportRefuseEverySpellingOfTheStore() throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try ReportCommandTests.makeStore(tool)
        try FileManager.default.createSymbolicLink(atPath: tool.path("link.csv"), withDestinationPath: store)
        try FileManager.default.linkItem(atPath: store, toPath: tool.path("hard.csv"))
        try FileManager.default.createDirectory(atPath: tool.path("sub"), withIntermediateDirectories: true)
        // A WAL that does not exist yet: writing it would hand SQLite a log it never wrote.
        try FileManager.default.createSymbolicLink(atPath: tool.path("wal-link"), withDestinationPath: store + "-wal")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let spellings = ["practice.sqlite", "./practice.sqlite", "sub/../practice.sqlite", store, "link.csv", "hard.csv",
                         "practice.sqlite-wal", "practice.sqlite-shm", "practice.sqlite-journal", "wal-link"]
        for output in spellings {
            for command in [["export", "--store", "practice.sqlite", "--output", output],
                            ["report", "--store", store, "--format", "csv", "--output", output]] {
                let result = try tool.run(command)
                #expect(result.status == 73, "\(command): \(result.standardError)")
                #expect(result.standardError.contains("--output \(output) is the store"), "\(result.standardError)")
                #expect(!result.standardError.contains("Error Domain="))
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(!FileManager.default.fileExists(atPath: store + "-journal"))
        let report = try tool.run(["report", "--store", store])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("1,500"))
    }

    @Test func theDefaultStoreIsProtectedToo() throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let result = try tool.run(["report", "--output", "home/practice.sqlite"])
        #expect(result.status == 73, "\(result.standardError)")
        let report = try tool.run(["report"])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("2,400"))
    }

    @Test func anotherFileBesideTheStoreIsWritten() throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try ReportCommandTests.makeStore(tool)
        let result = try tool.run(["export", "--store", store, "--output", "practice.sqlite.csv"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: tool.path("practice.sqlite.csv")))
    }
}
