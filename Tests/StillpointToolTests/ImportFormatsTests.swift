import Foundation
import Testing

/// End to end: the exports people have from Meditation Helper, Garmin Connect and Strava import without
/// column flags; sources show by their names; counts and offsets read right.
@Suite("stillpoint import: formats seen in the wild", .serialized)
struct ImportFormatsTests {
    static func fixture(_ name: String) -> String { ImportCommandTests.fixture(name) }

    func export(_ store: String, in tool: ToolRunner) async throws -> String {
        try await tool.run(["export", "--store", store, "--columns", "start,duration,kind,source,timeZone", "--sort", "start",
                      "--output", "-"]).lines
    }

    @Test func aMeditationHelperLogImports() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        let result = try await tool.run(["import", Self.fixture("meditation-helper.txt"), "--format", "meditation-helper", "--store", store],
                                  environment: ["TZ": "America/Los_Angeles"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains(": 6 new, 0 updated, 0 already there, 3 skipped"), "\(result.standardOutput)")
        #expect(result.standardError.contains("Meditation Helper times carry no zone: read as the wall-clock times you saw"))
        #expect(result.standardError.contains("skipped line 6: has no duration in milliseconds"))
        let rows = try await export(store, in: tool).split(separator: "\n")
        #expect(rows.last == "2024-03-10T07:00:00Z,1500.0,meditation,meditation_helper,Etc/UTC")
        let again = try await tool.run(["import", Self.fixture("meditation-helper.txt"), "--format", "meditation-helper", "--store", store])
        #expect(again.standardOutput.contains(": 0 new, 0 updated, 6 already there"), "\(again.standardOutput)")
    }

    @Test func garminAndStravaListsImportTheirPracticeAndCountTheRest() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        let garmin = try await tool.run(["import", Self.fixture("garmin-activities.csv"), "--format", "garmin", "--store", store])
        #expect(garmin.status == 0, "\(garmin.standardError)")
        #expect(garmin.standardOutput.contains(": 4 new, 0 updated, 0 already there, 1 skipped"), "\(garmin.standardOutput)")
        #expect(garmin.standardError.contains("left out 3 activities that are not yoga or meditation: 2 Running, 1 Cycling"),
                "\(garmin.standardError)")
        #expect(!garmin.standardError.contains("line 3"), "other activities are counted, not listed: \(garmin.standardError)")
        let strava = try await tool.run(["import", Self.fixture("strava-activities.csv"), "--format", "strava", "--store", store])
        #expect(strava.status == 0, "\(strava.standardError)")
        #expect(strava.standardOutput.contains(": 3 new, 0 updated, 0 already there, 1 skipped"), "\(strava.standardOutput)")
        #expect(strava.standardError.contains("Strava times are in UTC"))
        #expect(strava.standardError.contains("left out 3 activities that are not yoga or meditation"))
        let rows = try await export(store, in: tool)
        #expect(rows.contains("2023-01-05T07:12:34Z,3600.0,yoga,strava,\n"), "\(rows)")
        #expect(rows.contains("2023-01-06T23:30:00Z,1200.0,meditation,strava,\n"))
        #expect(rows.contains("2024-03-09T21:30:00Z,600.3,breathwork,garmin_connect,Etc/UTC\n"), "\(rows)")
        let report = try await tool.run(["report", "--store", store, "--as-of", "2024-03-11T00:00:00Z"])
        #expect(report.standardOutput.contains("Garmin Connect"), "\(report.standardOutput)")
        #expect(report.standardOutput.contains("Strava"))
    }

    @Test func anUnknownFormatNamesEveryFormat() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let result = try await tool.run(["import", Self.fixture("garmin-activities.csv"), "--format", "polar"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("use insight-timer, apple-health, meditation-helper, garmin, strava or csv"),
                "\(result.standardError)")
    }

    @Test func insightTimerShowsByItsName() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        _ = try await tool.run(["import", Self.fixture("insight-timer.csv"), "--format", "insight-timer", "--store", store])
        for format in ["text", "markdown"] {
            let report = try await tool.run(["report", "--store", store, "--format", format, "--as-of", "2024-03-11T00:00:00Z"])
            #expect(report.status == 0, "\(report.standardError)")
            #expect(report.standardOutput.contains("Insight Timer"), "\(format): \(report.standardOutput)")
            #expect(!report.standardOutput.contains("Insight timer"), "\(format)")
        }
    }

    @Test func anOffsetBeyondFourteenHoursIsRefusedAsSuch() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let file = tool.path("log.csv")
        try "start,duration\n2024-03-05T07:30:00+19:00,600\n2024-03-05T07:30:00+15:00,600\n2024-03-06T07:30:00+14:00,600\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await tool.run(["import", file, "--format", "csv", "--store", tool.path("practice.sqlite")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains(
            "skipped line 2: start '2024-03-05T07:30:00+19:00' has the offset +19:00, beyond ±14:00"), "\(result.standardError)")
        #expect(result.standardError.contains("skipped line 3: start '2024-03-05T07:30:00+15:00' has the offset +15:00, beyond ±14:00"))
        #expect(!result.standardError.contains("not an ISO 8601 date"))
        #expect(result.standardOutput.contains(": 1 new"))
    }

    @Test func oneRowIsOneRow() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let file = tool.path("one.csv")
        try "Started At,Duration,Preset,Activity\n03/10/2024 07:00:00,0:25:0,,Meditation\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await tool.run(["import", file, "--format", "insight-timer", "--store", tool.path("practice.sqlite")])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.contains("Importing  1 row in"), "\(result.standardError)")
        // "1 rows" alone, not a rate such as "51 rows/s".
        #expect(result.standardError.range(of: #"(?<![0-9,.])1 rows(?!/s)"#, options: .regularExpression) == nil)
        // 1,001 bad rows: the first 1,000 are listed, and one more is counted.
        let bad = tool.path("bad.csv")
        try ("start,duration\n" + String(repeating: "not a date,60\n", count: 1_001)).write(toFile: bad, atomically: true, encoding: .utf8)
        let skipped = try await tool.run(["import", bad, "--format", "csv", "--store", tool.path("practice.sqlite")])
        #expect(skipped.standardError.contains("... and 1 more row skipped\n"), "\(skipped.standardError.suffix(300))")
    }
}
