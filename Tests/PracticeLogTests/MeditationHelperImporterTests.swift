import Foundation
import Testing
@testable import PracticeLog

@Suite("Meditation Helper importer")
struct MeditationHelperImporterTests {
    static let fixture = "meditation-helper.txt"

    @Test("reads records at U+0FC4 and fields at U+0FCC: wall-clock starts, millisecond durations, lines")
    func records() throws {
        let result = try ImportFixtures.read(Self.fixture, with: .meditationHelper)
        #expect(result.recordLines == [1, 2, 3, 5, 7, 9])
        let expected: [(String, TimeInterval)] = [
            ("2024-03-10T07:00:00Z", 1_500),
            ("2024-03-09T22:30:00Z", 600),
            ("2024-03-09T06:45:10Z", 1_201.5),
            ("2024-03-08T07:00:00Z", 1_200),   // an end time instead of a duration
            ("2024-03-06T07:00:00Z", 900),
            ("2024-03-04T23:59:59Z", 300),
        ]
        try #require(result.records.count == expected.count)
        for (record, (start, duration)) in zip(result.records, expected) {
            #expect(record.start == ImportFixtures.instant(start))
            #expect(record.duration == duration)
            #expect(record.kind == "meditation")
            #expect(record.source == "meditation_helper")
            #expect(record.timeZone == "Etc/UTC")
        }
    }

    @Test("reports bad records with the line they start on")
    func badRecords() throws {
        let result = try ImportFixtures.read(Self.fixture, with: .meditationHelper)
        #expect(result.issues.map(\.description) == [
            "line 4: has no start time like 2024-03-05 07:30:00 among its fields '2024-03-08 31:00:00', '600000', ''",
            "line 6: has no duration in milliseconds after its start '2024-03-07 07:00:00'",
            "line 7: duration is 0 s; a session lasts longer than 0 seconds",
        ])
    }

    @Test("a zone given makes the times true instants in it, with the same keys")
    func timeZone() throws {
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let result = try ImportFixtures.read(Self.fixture, with: MeditationHelperImporter(timeZone: tokyo))
        #expect(result.records.first?.start == ImportFixtures.instant("2024-03-09T22:00:00Z"))
        #expect(result.records.first?.timeZone == "Asia/Tokyo")
        let plain = try ImportFixtures.read(Self.fixture, with: .meditationHelper)
        #expect(result.records.map(\.key) == plain.records.map(\.key))
    }

    @Test("a file that is not such a log is a format error; an empty one too")
    func notALog() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csv = try ImportFixtures.write("Started At,Duration\n", named: "log.csv", in: directory)
        let error = try #require(throws: ImportFormatError.self) { try MeditationHelperImporter().makeRecordReader(url: csv) }
        #expect(error.errorDescription?.contains("is not a Meditation Helper log") == true)
        #expect(error.errorDescription?.contains("'Started At,Duration'") == true)
        let empty = try ImportFixtures.write("\n", named: "empty.txt", in: directory)
        #expect(throws: ImportFormatError.self) { try MeditationHelperImporter().makeRecordReader(url: empty) }
    }

    @Test("a record over 1 MiB stops the reading at its line")
    func hugeRecord() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = "\u{0FC4}2024-03-10 07:00:00\u{0FCC}60000\n\u{0FC4}" + String(repeating: "x", count: 1_100_000)
        let url = try ImportFixtures.write(text, named: "huge.txt", in: directory)
        let reader = try MeditationHelperImporter().makeRecordReader(url: url)
        #expect(try reader.next() != nil)
        let error = try #require(throws: ImportDataError.self) { try reader.next() }
        #expect(error.line == 2)
    }

    @Test("streams: a log of many 64 KiB blocks is read holding about one block, lines staying right")
    func streams() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try ImportFixtures.writeLarge(named: "long.txt", in: directory, header: "", targetBytes: 600_000) { index in
            // Every 500th record is bad; records run two to a line.
            let duration = index % 500 == 499 ? "soon" : "\(60_000 + index)"
            return "\u{0FC4}2020-01-02 03:04:05\u{0FCC}\(duration)" + (index % 2 == 1 ? "\n" : "")
        }
        let reader = try MeditationHelperImporter().makeRecordReader(url: url)
        let result = try ImportFixtures.drain(reader)
        #expect(result.records.count > 15_000)
        #expect(result.issues.first?.line == 250)   // record 499 starts line 250
        #expect(reader.peakBufferedBytes <= 2 * 64 * 1024)
    }
}
