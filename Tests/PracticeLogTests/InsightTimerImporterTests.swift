import Foundation
import Testing
@testable import PracticeLog

@Suite("Insight Timer importer")
struct InsightTimerImporterTests {
    @Test("reads every good row with its start (the wall-clock time, zone Etc/UTC), duration, kind, note and line")
    func goodRows() throws {
        let result = try ImportFixtures.read("insight-timer.csv", with: .insightTimer)
        #expect(result.recordLines == [2, 3, 4, 6, 7, 12, 13, 14, 15])
        let expected: [(String, TimeInterval, String, String?)] = [
            ("2024-03-10T21:15:00Z", 1_500, "meditation", nil),
            ("2024-03-10T06:30:00Z", 87 * 3_600 + 21 * 60 + 41, "meditation", nil),
            ("2024-03-09T18:00:05Z", 1, "tai_chi", nil),
            ("2024-03-08T19:45:00Z", 2_400, "yoga", "Evening, long"),
            ("2024-03-08T07:10:00Z", 1_200, "meditation", "Morning sit\nwith \"bell\""),
            ("2024-03-05T12:00:00Z", 7_205, "walking", nil),
            ("2024-03-04T08:00:00Z", 750, "meditation", nil),
            ("2024-03-03T08:00:00Z", 1_800, "meditation", nil),
            ("2024-02-29T23:59:59Z", 540, "mindful_movement", nil),
        ]
        try #require(result.records.count == expected.count)
        for (record, (start, duration, kind, note)) in zip(result.records, expected) {
            #expect(record.start == ImportFixtures.instant(start))
            #expect(record.duration == duration)
            #expect(record.kind == kind)
            #expect(record.note == note)
            #expect(record.source == "insight_timer")
            #expect(record.timeZone == "Etc/UTC")
            // The key is the time as written, read as UTC: what imports without --time-zone always stored.
            #expect(record.key == SessionRecord.key(source: "insight_timer", start: record.start,
                                                    end: record.start.addingTimeInterval(duration)))
        }
    }

    @Test("reports bad rows with their line and reason while the good rows still import")
    func badRows() throws {
        let result = try ImportFixtures.read("insight-timer.csv", with: .insightTimer)
        #expect(result.issues.map(\.description) == [
            "line 5: duration '1:x:0' is not H:M:S",
            "line 9: date '13/45/2024 07:00:00' is not MM/dd/yyyy HH:mm:ss",
            "line 10: duration '-0:5:0' is negative",
            "line 11: has 3 fields, expected 4 (Started At, Duration, Preset, Activity)",
        ])
    }

    @Test("reads the times in the zone given, across a DST change, and records that zone")
    func timeZoneOption() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let result = try ImportFixtures.read("insight-timer.csv", with: .insightTimer(timeZone: newYork))
        #expect(result.records[0].start == ImportFixtures.instant("2024-03-11T01:15:00Z"))   // EDT, -4
        #expect(result.records[1].start == ImportFixtures.instant("2024-03-10T10:30:00Z"))   // EDT, just after the change
        #expect(result.records[2].start == ImportFixtures.instant("2024-03-09T23:00:05Z"))   // EST, -5
        #expect(result.records.allSatisfy { $0.timeZone == "America/New_York" })
        // Keyed on the time as written: importing with a zone after importing without one finds the same sessions.
        let plain = try ImportFixtures.read("insight-timer.csv", with: .insightTimer)
        #expect(result.records.map(\.key) == plain.records.map(\.key))
    }

    @Test("says once how it read the times: wall-clock by default, in the zone given, UTC for the older header")
    func timeRule() throws {
        let url = ImportFixtures.url("insight-timer.csv")
        #expect(try InsightTimerImporter().makeRecordReader(url: url).timeRule
                == "Insight Timer times carry no zone: read as the wall-clock times you saw (--time-zone Europe/Berlin to give their zone)")
        let berlin = TimeZone(identifier: "Europe/Berlin")
        #expect(try InsightTimerImporter(timeZone: berlin).makeRecordReader(url: url).timeRule?.contains("Europe/Berlin") == true)
        let older = try InsightTimerImporter().makeRecordReader(url: ImportFixtures.url("insight-timer-older.csv"))
        #expect(older.timeRule?.contains("older Insight Timer export writes its times in UTC") == true)
    }

    @Test("an older export's StartedAt (UTC) times are instants: a zone given only says where to count them")
    func olderHeaderWithZone() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let result = try ImportFixtures.read("insight-timer-older.csv", with: .insightTimer(timeZone: tokyo))
        #expect(result.records.first?.start == ImportFixtures.instant("2016-01-15T06:00:00Z"))
        #expect(result.records.first?.timeZone == "Asia/Tokyo")
        let plain = try ImportFixtures.read("insight-timer-older.csv", with: .insightTimer)
        #expect(plain.records.first?.timeZone == nil)
    }

    @Test("accepts the older 'StartedAt (UTC)' header and plain activity words")
    func olderHeader() throws {
        let result = try ImportFixtures.read("insight-timer-older.csv", with: .insightTimer)
        #expect(result.records.map(\.kind) == ["meditation", "yoga"])
        #expect(result.records.first?.start == ImportFixtures.instant("2016-01-15T06:00:00Z"))
        #expect(result.issues.isEmpty)
    }

    @Test("a wrong header is a format error that names the file and the expected header")
    func wrongHeader() throws {
        let url = ImportFixtures.url("insight-timer-wrong-header.csv")
        let error = try #require(throws: ImportFormatError.self) {
            try InsightTimerImporter().makeRecordReader(url: url)
        }
        let message = try #require(error.errorDescription)
        #expect(message.contains(url.path))
        #expect(message.contains("'Started At,Duration,Preset,Activity'"))
        #expect(message.contains("'Date,Minutes,Type'"))
        #expect(message.contains("generic CSV"))
    }

    @Test("an empty file is a format error, a missing file a read error")
    func emptyAndMissing() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try ImportFixtures.write("", named: "empty.csv", in: directory)
        let error = try #require(throws: ImportFormatError.self) { try InsightTimerImporter().makeRecordReader(url: empty) }
        #expect(error.found == "an empty file")
        #expect(throws: ImportReadError.self) {
            try InsightTimerImporter().makeRecordReader(url: directory.appendingPathComponent("missing.csv"))
        }
    }

    @Test("CRLF line ends, a byte order mark and quoted line breaks keep the line numbers right")
    func crlfAndQuotedNewlines() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "\u{FEFF}Started At,Duration,Preset,Activity\r\n"
            + "03/10/2024 21:15:00,0:25:0,\"two\r\nlines\",PracticeType.Meditation\r\n"
            + "03/10/2024 20:00:00,0:x:0,,PracticeType.Meditation\r\n"
            + "\r\n"
            + "03/10/2024 19:00:00,0:5:0,\"a \"\"quoted\"\", comma\",PracticeType.Yoga\r\n"
            + "03/10/2024 18:00:00,0:5:0,\"never closed,PracticeType.Yoga\r\n"
        let url = try ImportFixtures.write(text, named: "crlf.csv", in: directory)
        let reader = try InsightTimerImporter().makeRecordReader(url: url)
        var result = ImportFixtures.Drained()
        // The quote never closed on line 7 stops the reading there, after every row before it.
        let error = try #require(throws: ImportDataError.self) {
            while let event = try reader.next() {
                switch event {
                case .record(let record, let line):
                    result.records.append(record)
                    result.recordLines.append(line)
                case .issue(let issue):
                    result.issues.append(issue)
                }
            }
        }
        #expect(result.recordLines == [2, 6])
        #expect(result.records.map(\.note) == ["two\r\nlines", "a \"quoted\", comma"])
        #expect(result.issues.map(\.description) == ["line 4: duration '0:x:0' is not H:M:S"])
        #expect(error.line == 7)
        #expect(error.reason.hasPrefix("the quoted field opened on this line is never closed"))
    }

    @Test("H:M:S with huge numbers is skipped as too long, never overflowing")
    func hugeDurations() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try ImportFixtures.write("""
            Started At,Duration,Preset,Activity
            03/10/2024 21:15:00,999999999:59:59,,PracticeType.Meditation
            03/10/2024 21:15:00,9999999999:0:0,,PracticeType.Meditation
            03/10/2024 21:15:00,168:0:0,,PracticeType.Meditation
            03/10/2024 21:15:00,0:0:0,,PracticeType.Meditation
            """, named: "huge.csv", in: directory)
        let result = try ImportFixtures.read(url, with: .insightTimer)
        #expect(result.recordLines == [4])
        #expect(result.issues.map(\.description) == [
            "line 2: duration 3599999999999 s is longer than 7 days (604800 s), the longest session imported",
            "line 3: duration '9999999999:0:0' is not H:M:S",
            "line 5: duration is 0 s; a session lasts longer than 0 seconds",
        ])
    }

    @Test("keys are stable across imports and distinct between sessions")
    func keys() throws {
        let first = try ImportFixtures.read("insight-timer.csv", with: .insightTimer)
        let second = try ImportFixtures.read("insight-timer.csv", with: .insightTimer)
        #expect(first.records.map(\.key) == second.records.map(\.key))
        #expect(Set(first.records.map(\.key)).count == first.records.count)
        #expect(first.records[0].key == "insight_timer|1710105300|1710106800")
    }

    @Test("line numbers stay right across many 64 KiB blocks")
    func manyBlocks() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Every 97th row has a two-line preset and every 1000th a bad duration.
        var line = 2
        var badLines: [Int] = []
        var goodLines: [Int] = []
        let url = try ImportFixtures.writeLarge(named: "many.csv", in: directory,
                                                header: "Started At,Duration,Preset,Activity\n",
                                                targetBytes: 600_000) { index in
            let preset = index % 97 == 0 ? "\"first line, then\nsecond\"" : ""
            let duration = index % 1_000 == 999 ? "0:61:0" : "0:\(index % 60):1"
            if index % 1_000 == 999 { badLines.append(line) } else { goodLines.append(line) }
            line += index % 97 == 0 ? 2 : 1
            return "01/02/2020 03:04:05,\(duration),\(preset),PracticeType.Meditation\n"
        }
        let result = try ImportFixtures.read(url, with: .insightTimer)
        #expect(result.recordLines == goodLines)
        #expect(result.issues.map(\.line) == badLines)
        #expect(!badLines.isEmpty)
    }

    @Test("a 50 MB export streams: the reader never holds more than two blocks")
    func streamsLargeFile() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let note = String(repeating: "breathe, ", count: 60)
        let url = try ImportFixtures.writeLarge(named: "large.csv", in: directory,
                                                header: "Started At,Duration,Preset,Activity\n",
                                                targetBytes: 50_000_000) { index in
            "12/31/2019 23:59:59,\(index % 90):\(index % 60):\(index % 60),\"\(note)\",PracticeType.Meditation\n"
        }
        let reader = try InsightTimerImporter().makeRecordReader(url: url)
        var records = 0
        while let event = try reader.next() {
            if case .record = event { records += 1 }
        }
        #expect(records > 70_000)
        #expect(reader.peakBufferedBytes <= 2 * 64 * 1024)
    }

    @Test("the built-in importers are listed with stable identifiers")
    func builtInList() {
        #expect(SessionImporters.builtIn.map { $0.id }
                == ["insight-timer", "apple-health", "meditation-helper", "garmin", "strava", "csv"])
        #expect(SessionImporters.type(withID: "apple-health") == AppleHealthImporter.self)
        #expect(SessionImporters.type(withID: "nope") == nil)
        #expect(InsightTimerImporter().id == "insight-timer")
    }
}
