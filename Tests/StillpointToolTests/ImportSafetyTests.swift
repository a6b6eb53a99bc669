import Foundation
import Testing

/// End to end: no import input crashes the tool, loses rows without saying so, hangs, or ends in a dump of
/// a Swift value; standard input imports, and re-imports stay exact.
@Suite("stillpoint import safety", .serialized)
struct ImportSafetyTests {
    /// The number of sessions in `store`, from a JSON report.
    func count(_ store: String, in tool: ToolRunner) async throws -> Int {
        try await ImportCommandTests().count(store, in: tool)
    }

    func write(_ text: String, _ name: String, in tool: ToolRunner) throws -> String {
        let path = tool.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Checks that a failure printed exactly one line, with none of a Swift value's description in it.
    func expectOneCleanLine(_ result: ToolRunner.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = result.standardError.split(separator: "\n").filter { $0.hasPrefix("Error:") }
        #expect(lines.count == 1, "stderr: \(result.standardError)", sourceLocation: sourceLocation)
        for dump in ["Error(", "(path:", "underlying", "Error Domain="] {
            #expect(!result.standardError.contains(dump), "stderr: \(result.standardError)", sourceLocation: sourceLocation)
        }
    }

    static let appleHealthHeader = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"

    /// A mindful session a minute long on day `index` after 2024-01-01 (one line each).
    static func mindful(_ index: Int) -> String {
        let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: 1_704_067_200 + Double(index) * 86_400))
        let day = String(date.prefix(10))
        return " <Record type=\"HKCategoryTypeIdentifierMindfulSession\" sourceName=\"Watch\" "
            + "startDate=\"\(day) 07:00:00 +0000\" endDate=\"\(day) 07:01:00 +0000\"/>\n"
    }

    // MARK: - Values out of range

    @Test func aHugeCSVDurationIsSkippedWithItsLineInsteadOfKillingTheTool() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        let file = try write("start,duration\n2024-01-01T00:00:00Z,10000000000000000000\n2024-01-02T00:00:00Z,600\n",
                             "huge.csv", in: tool)
        let result = try await tool.run(["import", file, "--format", "csv", "--store", store])
        #expect(result.status == 0, "\(result.status) \(result.standardError)")
        #expect(result.standardError.contains("line 2: duration 1e+19 s is longer than 7 days"), "\(result.standardError)")
        #expect(result.standardOutput.contains("1 new, 0 updated, 0 already there, 1 skipped"))
        #expect(try await count(store, in: tool) == 1)
    }

    @Test func anEndlessAppleHealthDurationNeverReachesTheStore() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        let huge = "1" + String(repeating: "0", count: 308)
        let file = try write(Self.appleHealthHeader
            + " <Workout workoutActivityType=\"HKWorkoutActivityTypeYoga\" duration=\"\(huge)\" durationUnit=\"min\" "
            + "sourceName=\"W\" startDate=\"2024-03-05 00:00:00 +0000\" endDate=\"2024-03-05 00:45:00 +0000\"/>\n"
            + Self.mindful(1) + "</HealthData>\n", "export.xml", in: tool)
        let result = try await tool.run(["import", file, "--format", "apple-health", "--store", store])
        #expect(result.status == 0, "\(result.status) \(result.standardError)")
        #expect(result.standardError.contains("line 3: duration is longer than 7 days (604800 s)"), "\(result.standardError)")
        #expect(try await count(store, in: tool) == 1)
        // Reports of the store work, since nothing endless was stored.
        let report = try await tool.run(["report", "--store", store, "--as-of", "2025-01-01T00:00:00Z"])
        #expect(report.status == 0, "\(report.status) \(report.standardError)")
    }

    @Test func everyParserPathSkipsOutOfRangeValuesWithTheirLines() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        let insight = try write("""
            Started At,Duration,Preset,Activity
            03/10/2024 21:15:00,999999999:59:59,,PracticeType.Meditation
            03/10/2024 21:15:00,0:0:0,,PracticeType.Meditation
            12/31/1969 23:00:00,0:10:0,,PracticeType.Meditation
            12/31/9999 23:00:00,0:10:0,,PracticeType.Meditation
            03/11/2024 21:15:00,0:10:0,,PracticeType.Meditation
            """, "insight.csv", in: tool)
        let fromInsight = try await tool.run(["import", insight, "--format", "insight-timer", "--store", store])
        #expect(fromInsight.status == 0, "\(fromInsight.standardError)")
        for line in ["line 2: duration 3599999999999 s is longer than 7 days", "line 3: duration is 0 s",
                     "line 4: the start lies before 1970-01-01", "line 5: the start 9999-12-31T23:00:00Z lies more than a day in the future"] {
            #expect(fromInsight.standardError.contains(line), "\(fromInsight.standardError)")
        }
        let minutes = try write("start,minutes\n2024-01-01T00:00:00Z,\(String(repeating: "9", count: 300))\n"
            + "2024-01-02T00:00:00Z,10080.5\n2024-01-03T00:00:00Z,10\n", "minutes.csv", in: tool)
        let fromMinutes = try await tool.run(["import", minutes, "--format", "csv", "--duration-column", "minutes",
                                        "--duration-unit", "minutes", "--store", store])
        #expect(fromMinutes.status == 0, "\(fromMinutes.standardError)")
        #expect(fromMinutes.standardError.contains("line 2: duration 6e+301 s is longer than 7 days"), "\(fromMinutes.standardError)")
        #expect(fromMinutes.standardError.contains("line 3: duration 604830 s is longer than 7 days"), "\(fromMinutes.standardError)")
        #expect(try await count(store, in: tool) == 2)
    }

    // MARK: - Nothing lost silently

    @Test func anUnclosedQuoteStopsAtItsLineAndKeepsTheRowsBeforeIt() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        var text = "start,duration\n"
        for row in 0..<1_000 { text += "2024-01-01T00:00:00Z,\(row + 1)\n" }
        text += "2024-02-01T00:00:00Z,\"60\n"
        for row in 0..<1_999 { text += "2024-03-01T00:00:00Z,\(row + 1)\n" }
        let file = try write(text, "sessions.csv", in: tool)
        let result = try await tool.run(["import", file, "--format", "csv", "--store", store])
        #expect(result.status == 65, "\(result.status) \(result.standardError)")
        #expect(result.standardError.contains("sessions.csv line 1002: the quoted field opened on this line is never closed"),
                "\(result.standardError)")
        #expect(result.standardError.contains("the 1000 sessions before line 1002 are saved"), "\(result.standardError)")
        expectOneCleanLine(result)
        #expect(try await count(store, in: tool) == 1_000)
    }

    @Test func aTruncatedAppleHealthExportFailsAndSaysWhatWasKept() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        var text = Self.appleHealthHeader
        for index in 0..<400 { text += Self.mindful(index) }
        text += "</HealthData>\n"
        let half = String(text.prefix(text.count / 2))
        let kept = half.components(separatedBy: "\n").count - 3   // header lines, and the cut line
        let file = try write(half, "export.xml", in: tool)
        let store = tool.path("practice.sqlite")
        let result = try await tool.run(["import", file, "--format", "apple-health", "--store", store])
        #expect(result.status == 65, "\(result.status) \(result.standardError)")
        #expect(result.standardError.contains("the export is cut short"), "\(result.standardError)")
        #expect(result.standardError.contains("the \(kept) sessions before line"), "\(result.standardError)")
        #expect(result.standardError.contains("Export the data from Apple Health again"), "\(result.standardError)")
        expectOneCleanLine(result)
        #expect(try await count(store, in: tool) == kept)

        // The same cut export.xml inside export.zip.
        let zip = tool.path("export.zip")
        try StoredZip.archive([("apple_health_export/export.xml", Data(half.utf8))]).write(to: URL(fileURLWithPath: zip))
        let zipped = try await tool.run(["import", zip, "--format", "apple-health", "--store", tool.path("zip.sqlite")])
        #expect(zipped.status == 65, "\(zipped.status) \(zipped.standardError)")
        #expect(zipped.standardError.contains("the export is cut short"), "\(zipped.standardError)")
        expectOneCleanLine(zipped)

        // A whole export.zip cut in half has lost its directory: refused before anything is read.
        let whole = StoredZip.archive([("apple_health_export/export.xml", Data(text.utf8))])
        let halfZip = tool.path("half.zip")
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: halfZip))
        let cutZip = try await tool.run(["import", halfZip, "--format", "apple-health", "--store", tool.path("half.sqlite")])
        #expect(cutZip.status == 65, "\(cutZip.status) \(cutZip.standardError)")
        #expect(cutZip.standardError.contains("a damaged or unsupported ZIP archive"), "\(cutZip.standardError)")
        expectOneCleanLine(cutZip)
    }

    // MARK: - Standard input

    @Test func dashAndDevStdinReadAPipeAndTheReRunIsExact() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        var csv = "start,duration\n"
        // Larger than a pipe's buffer, so the tool must read while the test writes.
        for row in 0..<5_000 { csv += "2024-01-01T00:00:00Z,\(row + 1)\n" }
        let first = try await tool.run(["import", "-", "--format", "csv", "--store", store], input: .pipe(Data(csv.utf8)))
        #expect(first.status == 0, "\(first.status) \(first.standardError)")
        #expect(first.standardOutput.contains("5000 new, 0 updated, 0 already there, 0 skipped"), "\(first.standardOutput)")
        let again = try await tool.run(["import", "/dev/stdin", "--format", "csv", "--store", store], input: .pipe(Data(csv.utf8)))
        #expect(again.status == 0, "\(again.status) \(again.standardError)")
        #expect(again.standardOutput.contains("0 new, 0 updated, 5000 already there, 0 skipped"), "\(again.standardOutput)")
        #expect(try await count(store, in: tool) == 5_000)

        let insight = "Started At,Duration,Preset,Activity\n03/10/2024 21:15:00,0:25:0,,PracticeType.Meditation\n"
        let fromInsight = try await tool.run(["import", "-", "--format", "insight-timer", "--store", store],
                                       input: .pipe(Data(insight.utf8)))
        #expect(fromInsight.status == 0, "\(fromInsight.standardError)")
        #expect(fromInsight.standardOutput.contains("1 new"), "\(fromInsight.standardOutput)")
    }

    @Test func appleHealthXMLAndAZipReadFromAPipe() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        var xml = Self.appleHealthHeader
        for index in 0..<3 { xml += Self.mindful(index) }
        xml += "</HealthData>\n"
        let fromPipe = try await tool.run(["import", "-", "--format", "apple-health", "--store", store], input: .pipe(Data(xml.utf8)))
        #expect(fromPipe.status == 0, "\(fromPipe.status) \(fromPipe.standardError)")
        #expect(fromPipe.standardOutput.contains("3 new"), "\(fromPipe.standardOutput)")

        let zip = StoredZip.archive([("apple_health_export/export.xml", Data(xml.utf8))])
        // Standard input is kept in a file first, so a zip piped in can be read like a file.
        let zipFromPipe = try await tool.run(["import", "-", "--format", "apple-health", "--store", store], input: .pipe(zip))
        #expect(zipFromPipe.status == 0, "\(zipFromPipe.status) \(zipFromPipe.standardError)")
        #expect(zipFromPipe.standardOutput.contains("0 new, 0 updated, 3 already there"), "\(zipFromPipe.standardOutput)")

        // A zip redirected from a file can be read again from its start, so it imports.
        let zipPath = tool.path("export.zip")
        try zip.write(to: URL(fileURLWithPath: zipPath))
        let redirected = try await tool.run(["import", "-", "--format", "apple-health", "--store", store], input: .file(zipPath))
        #expect(redirected.status == 0, "\(redirected.status) \(redirected.standardError)")
        #expect(redirected.standardOutput.contains("0 new, 0 updated, 3 already there"), "\(redirected.standardOutput)")
    }

    // MARK: - Record size

    @Test func devZeroStopsAtTheRecordLimitInsteadOfHanging() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        for format in ["csv", "insight-timer"] {
            let result = try await tool.run(["import", "/dev/zero", "--format", format, "--store", store], input: .pipe(Data()))
            #expect(result.status == 65, "\(format): \(result.status) \(result.standardError)")
            #expect(result.standardError.contains("/dev/zero line 1: the row on this line is longer than 1 MiB, the limit for one record"),
                    "\(result.standardError)")
            expectOneCleanLine(result)
        }
        let endlessText = Self.appleHealthHeader + String(repeating: "a", count: 3 << 20)
        let xml = try await tool.run(["import", "-", "--format", "apple-health", "--store", store], input: .pipe(Data(endlessText.utf8)))
        #expect(xml.status == 65, "\(xml.status) \(xml.standardError)")
        #expect(xml.standardError.contains("line 2: malformed XML (the text from this line on is longer than 1 MiB"), "\(xml.standardError)")
        expectOneCleanLine(xml)
    }

    // MARK: - Exit statuses

    @Test func exitStatusesAndOneLineWhenTheImportStops() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        let missing = try await tool.run(["import", tool.path("missing.csv"), "--format", "csv", "--store", store])
        #expect(missing.status == 66, "\(missing.status) \(missing.standardError)")
        #expect(missing.standardError.contains("missing.csv could not be read: the file does not exist"))
        expectOneCleanLine(missing)

        let wrong = try write("date,minutes\n", "wrong.csv", in: tool)
        let wrongFormat = try await tool.run(["import", wrong, "--format", "csv", "--store", store])
        #expect(wrongFormat.status == 65, "\(wrongFormat.status) \(wrongFormat.standardError)")
        expectOneCleanLine(wrongFormat)

        // A damaged archive: the entry's bytes no longer match its checksum, found at the end of the entry.
        var xml = Self.appleHealthHeader
        for index in 0..<10 { xml += Self.mindful(index) }
        xml += "</HealthData>\n"
        var zip = StoredZip.archive([("apple_health_export/export.xml", Data(xml.utf8))])
        let locale = try #require(zip.range(of: Data("en_US".utf8)))
        zip.replaceSubrange(locale, with: Data("en_GB".utf8))
        let zipPath = tool.path("export.zip")
        try zip.write(to: URL(fileURLWithPath: zipPath))
        let damaged = try await tool.run(["import", zipPath, "--format", "apple-health", "--store", store])
        #expect(damaged.status == 74, "\(damaged.status) \(damaged.standardError)")
        #expect(damaged.standardError.contains("the checksum of apple_health_export/export.xml does not match"),
                "\(damaged.standardError)")
        #expect(damaged.standardError.contains("The import stopped"), "\(damaged.standardError)")
        expectOneCleanLine(damaged)
    }
}
