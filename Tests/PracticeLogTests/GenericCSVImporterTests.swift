import Foundation
import Testing
@testable import PracticeLog

@Suite("Generic CSV importer")
struct GenericCSVImporterTests {
    static let mapping = GenericCSVImporter(startColumn: "Date", duration: .minutes("Minutes"),
                                            kindColumn: "type", noteColumn: " Notes ")

    @Test("maps the named columns: ISO 8601 starts, minutes, kinds and notes")
    func records() throws {
        let result = try ImportFixtures.read("generic-sessions.csv", with: Self.mapping)
        #expect(result.recordLines == [2, 3, 4, 6, 11])
        // A time with an offset keeps it as its zone; one without is the wall-clock time the person saw.
        let expected: [(String, TimeInterval, String, String?, String)] = [
            ("2024-03-05T07:30:00Z", 1_500, "yoga", "Sun salutations, slow", "GMT"),
            ("2024-03-05T19:00:00Z", 750, "tai_chi", nil, "Etc/UTC"),
            ("2024-03-06T05:45:00Z", 1_200, "meditation", "Long note\nover two lines", "GMT+0100"),
            ("2024-03-07T00:00:00Z", 1_800, "meditation", nil, "Etc/UTC"),
            ("2024-03-11T07:00:00Z", 900, "walking", nil, "GMT"),
        ]
        try #require(result.records.count == expected.count)
        for (record, (start, duration, kind, note, zone)) in zip(result.records, expected) {
            #expect(record.start == ImportFixtures.instant(start))
            #expect(record.duration == duration)
            #expect(record.kind == kind)
            #expect(record.note == note)
            #expect(record.source == "csv")
            #expect(record.timeZone == zone)
        }
    }

    @Test("reports bad rows with their line and reason while the good rows still import")
    func badRows() throws {
        let result = try ImportFixtures.read("generic-sessions.csv", with: Self.mapping)
        #expect(result.issues.map(\.description) == [
            "line 7: Date 'not a date' is not an ISO 8601 date such as 2024-03-05T07:30:00",
            "line 8: Minutes '-5' is negative",
            "line 9: Minutes 'abc' is not a number of minutes",
            "line 10: has 3 fields, expected 4 like the header",
            "line 12: has 5 fields, expected 4 like the header",
        ])
    }

    @Test("reads dates without an offset in the zone given, and records that zone")
    func timeZone() throws {
        var importer = Self.mapping
        importer.timeZone = TimeZone(identifier: "Europe/Vienna")
        let result = try ImportFixtures.read("generic-sessions.csv", with: importer)
        #expect(result.records.map(\.start) == [
            "2024-03-05T07:30:00Z", "2024-03-05T18:00:00Z", "2024-03-06T05:45:00Z", "2024-03-06T23:00:00Z",
            "2024-03-11T07:00:00Z",
        ].map(ImportFixtures.instant))
        #expect(result.records.allSatisfy { $0.timeZone == "Europe/Vienna" })
    }

    @Test("a date pattern, an end column, a semicolon delimiter and a source name")
    func patternEndAndDelimiter() throws {
        let importer = GenericCSVImporter.csv(startColumn: "beginn", duration: .end("Ende"), kindColumn: "Art",
                                              dateFormat: "dd.MM.yyyy HH:mm",
                                              timeZone: TimeZone(identifier: "Europe/Berlin"),
                                              source: "yoga-sheet", delimiter: ";")
        let result = try ImportFixtures.read("generic-semicolon.csv", with: importer)
        #expect(result.recordLines == [2, 4])
        #expect(result.records.map(\.start) == ["2024-03-05T06:30:00Z", "2024-03-07T06:00:00Z"].map(ImportFixtures.instant))
        #expect(result.records.map(\.duration) == [2_700, 1_200])
        #expect(result.records.map(\.kind) == ["yoga", "tai_chi"])
        #expect(result.records.first?.key == "yoga-sheet|1709620200|1709622900")
        #expect(result.issues.map(\.description) == [
            "line 3: Ende '06.03.2024 21:00' is before the start (a negative duration)",
        ])
    }

    @Test("seconds and H:M:S durations, and a default kind")
    func durationUnits() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try ImportFixtures.write("""
            start,duration,length
            2024-01-01T06:00:00Z,1,87:21:41
            2024-01-02T06:00:00Z,314501,0:0:1
            2024-01-03T06:00:00Z,,1:x:0
            """, named: "sessions.csv", in: directory)
        let seconds = try ImportFixtures.read(url, with: GenericCSVImporter.csv(
            startColumn: "start", duration: .seconds("duration"), defaultKind: "Yoga"))
        #expect(seconds.records.map(\.duration) == [1, 314_501])
        #expect(seconds.records.map(\.kind) == ["yoga", "yoga"])
        #expect(seconds.issues.map(\.description) == ["line 4: duration is empty"])
        let hms = try ImportFixtures.read(url, with: .csv(startColumn: "start", duration: .hoursMinutesSeconds("length")))
        #expect(hms.records.map(\.duration) == [314_501, 1])
        #expect(hms.issues.map(\.description) == ["line 4: length '1:x:0' is not H:M:S"])
    }

    @Test("a runaway quoted field stops the reading at 1 MiB, naming the line where the quote opened")
    func runawayField() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try ImportFixtures.write(
            "start,duration\n2024-01-01T00:00:00Z,60\n2024-01-01T00:00:00Z,\"never closed\n"
                + String(repeating: "x", count: 1_200_000) + "\n2024-01-02T00:00:00Z,60\n2024-01-03T00:00:00Z\n",
            named: "runaway.csv", in: directory)
        let reader = try GenericCSVImporter().makeRecordReader(url: url)
        #expect(try reader.next() == .record(SessionRecord(start: ImportFixtures.instant("2024-01-01T00:00:00Z"),
                                                          duration: 60, kind: "meditation", source: "csv", timeZone: "GMT"),
                                                    line: 2))
        let error = try #require(throws: ImportDataError.self) { try reader.next() }
        #expect(error.line == 3)
        #expect(error.path == url.path)
        #expect(error.reason.contains("longer than 1 MiB"))
        #expect(error.reason.contains("closing quote missing"))
        #expect(try reader.next() == nil)
    }

    @Test("a quote never closed stops the reading at the line where it opened, after the rows before it")
    func unclosedQuote() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var text = "start,duration\n"
        for day in 1...1_000 { text += "2024-01-01T00:00:00Z,\(day)\n" }
        text += "2024-02-01T00:00:00Z,\"60\n"
        for day in 1...1_999 { text += "2024-03-01T00:00:00Z,\(day)\n" }
        let url = try ImportFixtures.write(text, named: "unclosed.csv", in: directory)
        let reader = try GenericCSVImporter().makeRecordReader(url: url)
        var records = 0
        let error = try #require(throws: ImportDataError.self) {
            while let event = try reader.next() {
                if case .record = event { records += 1 }
            }
        }
        #expect(records == 1_000)
        #expect(error.line == 1_002)
        #expect(error.errorDescription?.hasPrefix("\(url.path) line 1002: the quoted field opened on this line is never closed") == true)
    }

    @Test("an endless row (a file of zero bytes) stops at 1 MiB with line 1, before any header is found")
    func endlessRow() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("zeros.csv")
        try Data(count: 3 << 20).write(to: url)
        let error = try #require(throws: ImportDataError.self) { try GenericCSVImporter().makeRecordReader(url: url) }
        #expect(error.line == 1)
        #expect(error.reason.contains("longer than 1 MiB, the limit for one record"))
        // A row of nothing but delimiters is bounded too.
        let commas = directory.appendingPathComponent("commas.csv")
        try Data(repeating: UInt8(ascii: ","), count: 3 << 20).write(to: commas)
        #expect(throws: ImportDataError.self) { try GenericCSVImporter().makeRecordReader(url: commas) }
    }

    @Test("durations and starts out of range are skipped with their line, whatever the unit")
    func outOfRange() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try ImportFixtures.write("""
            start,duration,hms
            2024-01-01T06:00:00Z,10000000000000000000,999999999:59:59
            2024-01-02T06:00:00Z,1e308,0:0:0
            2024-01-03T06:00:00Z,604800,168:0:0
            2024-01-04T06:00:00Z,604801,168:0:1
            1969-12-31T23:59:59Z,60,0:1:0
            9999-12-31T00:00:00Z,60,0:1:0
            2024-01-05T06:00:00Z,0,-0:0:0
            """, named: "range.csv", in: directory)
        let seconds = try ImportFixtures.read(url, with: GenericCSVImporter())
        #expect(seconds.recordLines == [4])
        #expect(seconds.issues.map(\.description) == [
            "line 2: duration 1e+19 s is longer than 7 days (604800 s), the longest session imported",
            "line 3: duration '1e308' is not a number of seconds",
            "line 5: duration 604801 s is longer than 7 days (604800 s), the longest session imported",
            "line 6: the start lies before 1970-01-01, the earliest start imported",
            "line 7: the start 9999-12-31T00:00:00Z lies more than a day in the future",
            "line 8: duration is 0 s; a session lasts longer than 0 seconds",
        ])
        let minutes = try ImportFixtures.read(url, with: .csv(startColumn: "start", duration: .minutes("duration")))
        #expect(minutes.records.isEmpty)
        #expect(minutes.issues.first?.description == "line 2: duration 6e+20 s is longer than 7 days (604800 s), the longest session imported")
        let hms = try ImportFixtures.read(url, with: .csv(startColumn: "start", duration: .hoursMinutesSeconds("hms")))
        #expect(hms.recordLines == [4])
        #expect(hms.issues.map(\.line) == [2, 3, 5, 6, 7, 8])
    }

    @Test("a missing column or an empty file is a format error naming the columns")
    func formatErrors() throws {
        let url = ImportFixtures.url("generic-sessions.csv")
        let error = try #require(throws: ImportFormatError.self) { try GenericCSVImporter().makeRecordReader(url: url) }
        #expect(error.found == "no column named 'start' among 'Date', 'Minutes', 'Type', 'Notes'")
        #expect(error.errorDescription?.contains(url.path) == true)

        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try ImportFixtures.write("\n\n", named: "empty.csv", in: directory)
        let emptyError = try #require(throws: ImportFormatError.self) { try GenericCSVImporter().makeRecordReader(url: empty) }
        #expect(emptyError.found == "an empty file")
    }

    @Test("normalizes kinds from many spellings")
    func kinds() {
        #expect(KindNormalizer.normalize("PracticeType.TaiChi") == "tai_chi")
        #expect(KindNormalizer.normalize("Tai Chi") == "tai_chi")
        #expect(KindNormalizer.normalize("Méditation") == "meditation")
        #expect(KindNormalizer.normalize("ヨガ") == "yoga")
        #expect(KindNormalizer.normalize("Walking Meditation") == "walking_meditation")
        #expect(KindNormalizer.normalize("  ") == nil)
    }

    @Test("an offset beyond ±14:00 is refused as such, not as a date that is not ISO 8601")
    func offsetBeyondLimit() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try ImportFixtures.write("start,duration\n2024-03-05T07:30:00+19:00,60\n2024-03-05T07:30:00+14:00,60\n",
                                           named: "offsets.csv", in: directory)
        let result = try ImportFixtures.read(url, with: .csv)
        #expect(result.issues.map(\.description) == [
            "line 2: start '2024-03-05T07:30:00+19:00' has the offset +19:00, beyond ±14:00 (no clock is further "
                + "from UTC); give an offset between -12:00 and +14:00",
        ])
        #expect(result.records.map(\.timeZone) == ["GMT+1400"])
    }

    @Test("a zone given keeps true instants and is carried; a date format with a zone field leaves the zone unknown")
    func zones() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try ImportFixtures.write("start,duration\n2024-07-05T07:30:00,60\n2024-07-05T07:30:00+02:00,60\n",
                                           named: "zones.csv", in: directory)
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let zoned = try ImportFixtures.read(url, with: GenericCSVImporter(startColumn: "start", duration: .seconds("duration"), timeZone: paris))
        #expect(zoned.records.map(\.start) == ["2024-07-05T05:30:00Z", "2024-07-05T05:30:00Z"].map(ImportFixtures.instant))
        #expect(zoned.records.map(\.timeZone) == ["Europe/Paris", "Europe/Paris"])
        let formatted = try ImportFixtures.write("start,duration\n05.07.2024 07:30 +0200,60\n", named: "formatted.csv", in: directory)
        let withZone = try ImportFixtures.read(formatted, with: GenericCSVImporter(startColumn: "start", duration: .seconds("duration"),
                                                                                   dateFormat: "dd.MM.yyyy HH:mm Z"))
        #expect(withZone.records.map(\.start) == [ImportFixtures.instant("2024-07-05T05:30:00Z")])
        #expect(withZone.records.map(\.timeZone) == [nil])
        #expect(GenericCSVEventSource.hasZoneField("yyyy-MM-dd'T'HH:mm:ssXXX"))
        #expect(!GenericCSVEventSource.hasZoneField("yyyy-MM-dd 'Zeit' HH:mm"))
    }
}
