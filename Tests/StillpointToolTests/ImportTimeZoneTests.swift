import Foundation
import Testing

/// End to end: a time written without a zone counts on the day and hour the person saw, whatever zone the
/// machine running the tool is in; a zone or offset that is given keeps true instants.
@Suite("stillpoint import: time zones", .serialized)
struct ImportTimeZoneTests {
    static let zones = ["Europe/London", "America/Los_Angeles", "Asia/Tokyo"]

    /// An Insight Timer export, newest first: a sit at 07:30 every day from 1 March to 30 November 2023
    /// (across both daylight saving changes) except 15 June, one at 23:40 every fifth day and one at 00:20
    /// every seventh, all wall-clock times.
    static func insightTimerExport() -> (text: String, sevenOClock: Int) {
        var rows: [String] = []
        var sevenOClock = 0
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        var day = DateComponents(calendar: calendar, year: 2023, month: 3, day: 1).date ?? Date()
        var index = 0
        while let parts = Optional(calendar.dateComponents([.year, .month, .day], from: day)),
              parts.month != 12 {
            let date = String(format: "%02d/%02d/%04d", parts.month ?? 0, parts.day ?? 0, parts.year ?? 0)
            if !(parts.month == 6 && parts.day == 15) {
                if index % 7 == 3 { rows.append("\(date) 00:20:00,0:15:0,,PracticeType.Meditation") }
                rows.append("\(date) 07:30:00,0:25:0,,PracticeType.Meditation")
                sevenOClock += 1
                if index % 5 == 0 { rows.append("\(date) 23:40:00,0:10:0,,PracticeType.Yoga") }
            }
            index += 1
            day = calendar.date(byAdding: .day, value: 1, to: day) ?? day
        }
        return ("Started At,Duration,Preset,Activity\n" + rows.reversed().joined(separator: "\n") + "\n", sevenOClock)
    }

    /// The values of the statistics with these ids in a JSON report.
    static func values(_ json: String, ids: [String]) throws -> [String: String] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let statistics = object?["statistics"] as? [[String: Any]] ?? []
        var values: [String: String] = [:]
        for statistic in statistics {
            guard let id = statistic["id"] as? String, ids.contains(id), let value = statistic["value"] else { continue }
            let data = try JSONSerialization.data(withJSONObject: ["v": value], options: [.sortedKeys])
            values[id] = String(decoding: data, as: UTF8.self)
        }
        return values
    }

    @Test func anInsightTimerExportGivesTheSameStreaksDaysAndHoursInEveryZone() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let (text, sevenOClock) = Self.insightTimerExport()
        let file = tool.path("Insight Timer Sessions.csv")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let ids = ["longest_streak", "best_streaks", "current_streak", "active_days", "sessions_by_weekday", "sessions_by_hour"]
        var reports: [String: [String: String]] = [:]
        for zone in Self.zones {
            let store = tool.path("\(zone.replacingOccurrences(of: "/", with: "-")).sqlite")
            let imported = try await tool.run(["import", file, "--format", "insight-timer", "--store", store], environment: ["TZ": zone])
            #expect(imported.status == 0, "\(imported.standardError)")
            let rule = "Insight Timer times carry no zone: read as the wall-clock times you saw (--time-zone Europe/Berlin to give their zone)"
            #expect(imported.standardError.components(separatedBy: rule).count == 2, "said once: \(imported.standardError)")
            let report = try await tool.run(["report", "--store", store, "--format", "json", "--as-of", "2023-12-01T12:00:00Z"],
                                      environment: ["TZ": zone])
            #expect(report.status == 0, "\(report.standardError)")
            reports[zone] = try Self.values(report.standardOutput, ids: ids)
        }
        let london = try #require(reports["Europe/London"])
        #expect(london.count == ids.count)
        #expect(london["longest_streak"] == #"{"v":168}"#, "16 June to 30 November")
        #expect(london["sessions_by_hour"]?.contains(#""7":{"count":\#(sevenOClock),"#) == true, "\(london["sessions_by_hour"] ?? "")")
        #expect(reports["America/Los_Angeles"] == london)
        #expect(reports["Asia/Tokyo"] == london)
    }

    @Test func aZoneGivenToTheImportStoresTrueInstantsAndCorrectsAnEarlierImportInPlace() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let file = tool.path("sessions.csv")
        try "Started At,Duration,Preset,Activity\n07/01/2023 07:30:00,0:25:0,,Meditation\n01/02/2023 07:30:00,0:25:0,,Meditation\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let store = tool.path("practice.sqlite")
        let first = try await tool.run(["import", file, "--format", "insight-timer", "--store", store], environment: ["TZ": "Asia/Tokyo"])
        #expect(first.status == 0, "\(first.standardError)")
        let plain = try await tool.run(["export", "--store", store, "--columns", "start,timeZone", "--sort", "start", "--output", "-"])
        #expect(plain.lines == "start,timeZone\n2023-01-02T07:30:00Z,Etc/UTC\n2023-07-01T07:30:00Z,Etc/UTC\n")
        let zoned = try await tool.run(["import", file, "--format", "insight-timer", "--store", store, "--time-zone", "America/New_York"],
                                 environment: ["TZ": "Asia/Tokyo"])
        #expect(zoned.status == 0, "\(zoned.standardError)")
        #expect(zoned.standardOutput.contains(": 0 new, 2 updated"), "\(zoned.standardOutput)")
        #expect(zoned.standardError.contains("read as wall-clock times in America/New_York"))
        let exported = try await tool.run(["export", "--store", store, "--columns", "start,timeZone", "--sort", "start", "--output", "-"])
        #expect(exported.lines
                == "start,timeZone\n2023-01-02T12:30:00Z,America/New_York\n2023-07-01T11:30:00Z,America/New_York\n")
    }

    @Test func aCSVWithOffsetsOrAZoneKeepsTrueInstants() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let file = tool.path("log.csv")
        try "start,duration\n2023-07-01T07:30:00+02:00,600\n2023-07-02T07:30:00Z,600\n2023-07-03T07:30:00,600\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let store = tool.path("plain.sqlite")
        let plain = try await tool.run(["import", file, "--format", "csv", "--store", store], environment: ["TZ": "America/Los_Angeles"])
        #expect(plain.status == 0, "\(plain.standardError)")
        #expect(plain.standardError.contains("csv times without an offset are read as the wall-clock times you saw"))
        let exported = try await tool.run(["export", "--store", store, "--columns", "start,timeZone", "--sort", "start", "--output", "-"])
        #expect(exported.lines
                == "start,timeZone\n2023-07-01T05:30:00Z,GMT+0200\n2023-07-02T07:30:00Z,GMT\n2023-07-03T07:30:00Z,Etc/UTC\n")
        let zonedStore = tool.path("zoned.sqlite")
        let zoned = try await tool.run(["import", file, "--format", "csv", "--store", zonedStore, "--time-zone", "Asia/Tokyo"],
                                 environment: ["TZ": "America/Los_Angeles"])
        #expect(zoned.status == 0, "\(zoned.standardError)")
        let zonedExport = try await tool.run(["export", "--store", zonedStore, "--columns", "start,timeZone", "--sort", "start", "--output", "-"])
        #expect(zonedExport.lines
                == "start,timeZone\n2023-07-01T05:30:00Z,Asia/Tokyo\n2023-07-02T07:30:00Z,Asia/Tokyo\n2023-07-02T22:30:00Z,Asia/Tokyo\n")
    }

    @Test func anAppleHealthSessionCountsOnTheDayAndHourItWasLived() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let file = tool.path("export.xml")
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="Breathe" startDate="2024-03-09 23:30:00 -0500" endDate="2024-03-09 23:40:00 -0500"/>
             <Workout workoutActivityType="HKWorkoutActivityTypeYoga" duration="30" durationUnit="min" sourceName="Watch" startDate="2024-03-10 06:00:00 +0100" endDate="2024-03-10 06:30:00 +0100">
              <MetadataEntry key="HKTimeZone" value="Asia/Kolkata"/>
             </Workout>
            </HealthData>
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let store = tool.path("practice.sqlite")
        let imported = try await tool.run(["import", file, "--format", "apple-health", "--store", store], environment: ["TZ": "Asia/Tokyo"])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardError.contains("Apple Health times carry their offset"))
        let exported = try await tool.run(["export", "--store", store, "--columns", "start,timeZone", "--sort", "start", "--output", "-"])
        #expect(exported.lines == "start,timeZone\n2024-03-10T04:30:00Z,GMT-0500\n2024-03-10T05:00:00Z,Asia/Kolkata\n")
        let report = try await tool.run(["report", "--store", store, "--format", "json", "--as-of", "2024-03-11T00:00:00Z"],
                                  environment: ["TZ": "Asia/Tokyo"])
        let hours = try Self.values(report.standardOutput, ids: ["sessions_by_hour"])["sessions_by_hour"] ?? ""
        #expect(hours.contains(#""23":{"count":1,"#), "lived at 23:30 in Chicago: \(hours)")
        #expect(hours.contains(#""10":{"count":1,"#), "lived at 10:30 in Kolkata: \(hours)")
    }
}

extension ToolRunner.Result {
    /// Standard output with CSV's CRLF line ends as plain line feeds.
    var lines: String { standardOutput.replacingOccurrences(of: "\r\n", with: "\n") }
}
