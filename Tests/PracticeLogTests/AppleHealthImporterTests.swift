import Foundation
import Testing
import ZIPFoundation
@testable import PracticeLog

@Suite("Apple Health importer")
struct AppleHealthImporterTests {
    static let fixture = "apple-health-export.xml"

    @Test("reads mindful sessions and yoga-like workouts with sources, zones (HKTimeZone, else the offset), durations and lines")
    func records() throws {
        let result = try ImportFixtures.read(Self.fixture, with: .appleHealth)
        #expect(result.recordLines == [37, 39, 40, 43, 49, 59, 60, 63])
        let expected: [(String, TimeInterval, String, String, String?)] = [
            ("2024-03-01T12:00:00Z", 1_200, "meditation", "Calm Timer", "GMT-0500"),
            ("2024-03-01T12:00:00Z", 1_200, "meditation", "Test Watch", "GMT-0500"),
            ("2019-04-10T13:10:34Z", 600, "meditation", "Sam\u{2019}s Apple Watch", "America/Chicago"),
            ("2019-04-11T11:00:00Z", 9, "meditation", "Sam\u{2019}s iPhone & more", "GMT-0500"),
            ("2024-03-05T00:00:00Z", 2_700, "yoga", "Test Watch", "America/Los_Angeles"),
            ("2024-03-06T12:00:00Z", 1_800, "pilates", "Test Watch", "GMT-0500"),
            ("2024-03-07T12:00:00Z", 1_230, "mind_and_body", "Test Watch", "GMT-0500"),
            ("2024-03-09T12:00:00Z", 900, "meditation", "Calm Timer", "GMT-0500"),
        ]
        try #require(result.records.count == expected.count)
        for (record, (start, duration, kind, source, zone)) in zip(result.records, expected) {
            #expect(record.start == ImportFixtures.instant(start))
            #expect(record.duration == duration)
            #expect(record.kind == kind)
            #expect(record.source == source)
            #expect(record.timeZone == zone)
            #expect(record.note == nil)
        }
        // The key follows the export's start and end, not the workout's own (pause-free) duration.
        #expect(result.records[4].key == "Test Watch|1709596800|1709599800")
    }

    @Test("drops a session written twice by the same source, and reports bad elements by line")
    func duplicatesAndIssues() throws {
        let result = try ImportFixtures.read(Self.fixture, with: .appleHealth)
        #expect(result.issues.map(\.description) == [
            "line 38: the same session as line 37 (same source, start and end); skipped as a duplicate",
            "line 44: endDate 2024-03-02 07:00:00 -0500 is before startDate 2024-03-02 07:20:00 -0500 (a negative duration)",
            "line 45: startDate 'yesterday' is not yyyy-MM-dd HH:mm:ss Z",
            "line 61: duration 'x' is not a number",
        ])
    }

    @Test("the workout types imported are an option")
    func workoutKinds() throws {
        let importer = AppleHealthImporter(workoutKinds: ["HKWorkoutActivityTypeRunning": "running"])
        let result = try ImportFixtures.read(Self.fixture, with: importer)
        #expect(result.records.filter { $0.kind != "meditation" }.map(\.kind) == ["running"])
        #expect(result.recordLines.contains(58))
    }

    @Test("a file that is not XML, or has another root, is a format error")
    func notAnExport() throws {
        let notXML = ImportFixtures.url("apple-health-not-xml.txt")
        let error = try #require(throws: ImportFormatError.self) { try AppleHealthImporter().makeRecordReader(url: notXML) }
        #expect(error.errorDescription?.contains(notXML.path) == true)
        #expect(error.errorDescription?.contains("<HealthData>") == true)
        #expect(error.found == "text that is not XML (it does not start with '<')")

        let wrongRoot = ImportFixtures.url("apple-health-wrong-root.xml")
        let rootError = try #require(throws: ImportFormatError.self) {
            try AppleHealthImporter().makeRecordReader(url: wrongRoot)
        }
        #expect(rootError.found == "the root element <ClinicalDocument> at line 2")

        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try ImportFixtures.write("", named: "export.xml", in: directory)
        let emptyError = try #require(throws: ImportFormatError.self) { try AppleHealthImporter().makeRecordReader(url: empty) }
        #expect(emptyError.found == "an empty file")
    }

    @Test("reads the export inside export.zip, skipping the CDA file, under a localized name too")
    func zipArchive() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let xml = try Data(contentsOf: ImportFixtures.url(Self.fixture))
        let cda = Data(("<?xml version=\"1.0\"?><ClinicalDocument>" + String(repeating: " ", count: 50_000)
            + "</ClinicalDocument>").utf8)
        for name in ["export.xml", "exportar.xml"] {
            let zip = directory.appendingPathComponent("\(name).zip")
            try Self.makeZip(at: zip, entries: [
                ("apple_health_export/export_cda.xml", cda),
                ("apple_health_export/\(name)", xml),
                ("apple_health_export/workout-routes/route_2024-03-04_7.00pm.gpx", Data("<gpx/>".utf8)),
            ])
            let fromZip = try ImportFixtures.read(zip, with: .appleHealth)
            let fromXML = try ImportFixtures.read(Self.fixture, with: .appleHealth)
            #expect(fromZip.records == fromXML.records)
            #expect(fromZip.recordLines == fromXML.recordLines)
            #expect(fromZip.issues == fromXML.issues)
        }
    }

    @Test("a zip without an export is a format error")
    func zipWithoutExport() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zip = directory.appendingPathComponent("export.zip")
        try Self.makeZip(at: zip, entries: [("photos/cat.jpg", Data([0xFF, 0xD8, 0xFF]))])
        let error = try #require(throws: ImportFormatError.self) { try AppleHealthImporter().makeRecordReader(url: zip) }
        #expect(error.expected == "apple_health_export/export.xml inside the archive")

        let damaged = try ImportFixtures.write("PK\u{3}\u{4} not really a zip", named: "damaged.zip", in: directory)
        let damagedError = try #require(throws: ImportFormatError.self) {
            try AppleHealthImporter().makeRecordReader(url: damaged)
        }
        #expect(damagedError.found == "a damaged or unsupported ZIP archive")
    }

    @Test("a reader dropped part-way through a zip stops its decompression")
    func abandonedZipReader() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let zip = directory.appendingPathComponent("export.zip")
        try Self.makeZip(at: zip, entries: [("apple_health_export/export.xml", Self.largeExport(records: 20_000))])
        for _ in 0..<3 {
            let reader = try AppleHealthImporter().makeRecordReader(url: zip)
            _ = try reader.next()
        }
        // Reaching here without hanging is the check; a full read still works afterwards.
        let reader = try AppleHealthImporter().makeRecordReader(url: zip)
        let result = try ImportFixtures.drain(reader)
        #expect(result.records.count == 20_000 / 50)
        #expect(reader.peakBufferedBytes <= 2 * 64 * 1024 + 4_096)
    }

    /// Reads to the end or the first error, keeping what came before it.
    static func readUntilError(_ reader: SessionRecordReader) -> (ImportFixtures.Drained, (any Error)?) {
        var drained = ImportFixtures.Drained()
        do {
            while let event = try reader.next() {
                switch event {
                case .record(let record, let line):
                    drained.records.append(record)
                    drained.recordLines.append(line)
                case .issue(let issue):
                    drained.issues.append(issue)
                }
            }
        } catch {
            return (drained, error)
        }
        return (drained, nil)
    }

    @Test("a cut-short export yields the sessions before the cut, then an error that says where it ends")
    func truncated() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try String(contentsOf: ImportFixtures.url(Self.fixture), encoding: .utf8)
        // Cut inside the yoga workout's children (line 53), inside a tag, and between two elements.
        for marker in ["<WorkoutStatistics", "<WorkoutStat", "</Correlation>"] {
            let end = try #require(text.range(of: marker)).upperBound
            let cut = String(text[..<end])
            let url = try ImportFixtures.write(cut, named: "export.xml", in: directory)
            let (result, error) = Self.readUntilError(try AppleHealthImporter().makeRecordReader(url: url))
            #expect(result.recordLines == [37, 39, 40, 43])
            let dataError = try #require(error as? ImportDataError)
            #expect(dataError.reason.contains("the export is cut short"))
            // The line the cut text ends on.
            #expect(dataError.line == cut.split(separator: "\n", omittingEmptySubsequences: false).count)
        }
        // The same export.xml cut inside export.zip.
        let zip = directory.appendingPathComponent("export.zip")
        let cutEnd = try #require(text.range(of: "<WorkoutStatistics")).upperBound
        let cut = String(text[..<cutEnd])
        try Self.makeZip(at: zip, entries: [("apple_health_export/export.xml", Data(cut.utf8))])
        let (fromZip, zipError) = Self.readUntilError(try AppleHealthImporter().makeRecordReader(url: zip))
        #expect(fromZip.recordLines == [37, 39, 40, 43])
        #expect((zipError as? ImportDataError)?.reason.contains("the export is cut short") == true)
    }

    @Test("an infinite or endless workout duration is skipped at the door, never stored")
    func infiniteDuration() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let huge = "1" + String(repeating: "0", count: 308)
        let text = """
            <HealthData>
             <Workout workoutActivityType="HKWorkoutActivityTypeYoga" duration="\(huge)" durationUnit="min" sourceName="W" startDate="2024-03-05 00:00:00 +0000" endDate="2024-03-05 00:45:00 +0000"/>
             <Workout workoutActivityType="HKWorkoutActivityTypeYoga" duration="45" durationUnit="min" sourceName="W" startDate="2024-03-06 00:00:00 +0000" endDate="2024-03-06 00:45:00 +0000"/>
             <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="A" startDate="2024-03-01 07:00:00 +0000" endDate="2024-03-01 07:00:00 +0000"/>
            </HealthData>
            """
        let url = try ImportFixtures.write(text, named: "export.xml", in: directory)
        let result = try ImportFixtures.read(url, with: .appleHealth)
        #expect(result.recordLines == [3])
        #expect(result.issues.map(\.description) == [
            "line 2: duration is longer than 7 days (604800 s), the longest session imported",
            "line 4: duration is 0 s; a session lasts longer than 0 seconds",
        ])
    }

    @Test("text, comments and nesting are bounded: an endless piece is an error naming the 1 MiB limit")
    func boundedPieces() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pieces = [
            ("text", "<HealthData>\n" + String(repeating: "a", count: 1_200_000) + "</HealthData>"),
            ("comment", "<HealthData>\n<!--" + String(repeating: "-", count: 1_200_000) + "-->" + "</HealthData>"),
            ("tag", "<HealthData>\n<Record type=\"" + String(repeating: "x", count: 1_200_000) + "\"/></HealthData>"),
            ("declaration", "<!DOCTYPE HealthData [" + String(repeating: "x", count: 1_200_000) + "]><HealthData/>"),
        ]
        for (name, text) in pieces {
            let url = try ImportFixtures.write(text, named: "\(name).xml", in: directory)
            let error: (any Error)?
            do {
                error = Self.readUntilError(try AppleHealthImporter().makeRecordReader(url: url)).1
            } catch let thrown {
                error = thrown
            }
            let described = (error as? any LocalizedError)?.errorDescription ?? "none"
            #expect(described.contains("longer than 1 MiB"), "\(name): \(described)")
        }
        let deep = String(repeating: "<a>", count: 1_000)
        let url = try ImportFixtures.write("<HealthData>" + deep, named: "deep.xml", in: directory)
        let (_, error) = Self.readUntilError(try AppleHealthImporter().makeRecordReader(url: url))
        #expect((error as? ImportDataError)?.reason.contains("nest more than 256 deep") == true)
    }

    @Test("broken markup part-way stops the import with an error at its line")
    func malformed() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="A" startDate="2024-03-01 07:00:00 +0000" endDate="2024-03-01 07:10:00 +0000"/>
             <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="A" startDate="2024-03-02 07:00:00 +0000"
             <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="A" startDate="2024-03-03 07:00:00 +0000" endDate="2024-03-03 07:10:00 +0000"/>
            </HealthData>
            """
        let url = try ImportFixtures.write(text, named: "export.xml", in: directory)
        let (result, error) = Self.readUntilError(try AppleHealthImporter().makeRecordReader(url: url))
        #expect(result.recordLines == [3])
        #expect(result.issues.isEmpty)
        let dataError = try #require(error as? ImportDataError)
        #expect(dataError.line == 4)
        #expect(dataError.reason.contains("the rest of the file was not read"))
    }

    @Test("reads the XML an export may hold: prolog, DTD, CDATA, quotes, references, odd spacing")
    func markupVariety() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = """
            <?xml version='1.0' encoding='UTF-8'?>
            <?xml-stylesheet type="text/xsl" href="health.xsl"?>
            <!DOCTYPE HealthData [
            <!ENTITY custom "x">
            <!-- a comment with ]> inside -->
            ]>
            <!-- before the root -->
            <HealthData locale='en_US'>
             <![CDATA[ <Record type="HKCategoryTypeIdentifierMindfulSession"/> ]]>
             <Record type='HKCategoryTypeIdentifierMindfulSession' sourceName='Mind > Body "Timer"' startDate='2024-03-01 07:00:00 +0000' endDate = "2024-03-01 07:05:00 +0000" ></Record>
             <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="&#x1F9D8; Sit&#x2019;s &unknown;" startDate="2024-03-02 07:00:00 +0100" endDate="2024-03-02 07:05:00 +0100"><MetadataEntry key="HKTimeZone" value="Not/AZone"/></Record>
             some text content
            </HealthData>
            """
        let url = try ImportFixtures.write(text, named: "export.xml", in: directory)
        let result = try ImportFixtures.read(url, with: .appleHealth)
        #expect(result.recordLines == [10, 11])
        #expect(result.records.map(\.source) == ["Mind > Body \"Timer\"", "\u{1F9D8} Sit\u{2019}s &unknown;"])
        #expect(result.records.map(\.start) == ["2024-03-01T07:00:00Z", "2024-03-02T06:00:00Z"].map(ImportFixtures.instant))
        #expect(result.records.map(\.duration) == [300, 300])
        // An unknown zone name is not kept: the offset stands in for it.
        #expect(result.records.map(\.timeZone) == ["GMT", "GMT+0100"])
        #expect(result.issues.isEmpty)
    }

    @Test("a 50 MB export streams: the reader never holds more than two blocks")
    func streamsLargeFile() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var sessions = 0
        let url = try ImportFixtures.writeLarge(named: "export.xml", in: directory, header: Self.largeHeader,
                                                footer: "</HealthData>\n", targetBytes: 50_000_000) { index in
            if index % 50 == 0 { sessions += 1 }
            return Self.largePiece(index)
        }
        let reader = try AppleHealthImporter().makeRecordReader(url: url)
        var records = 0
        var issues: [ImportIssue] = []
        while let event = try reader.next() {
            guard case .record = event else {
                if case .issue(let issue) = event { issues.append(issue) }
                continue
            }
            records += 1
        }
        #expect(records > 2_500)
        #expect(records == sessions)
        #expect(issues.isEmpty)
        #expect(reader.peakBufferedBytes <= 2 * 64 * 1024 + 4_096)
    }

    // MARK: - Helpers

    static func makeZip(at url: URL, entries: [(String, Data)]) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in entries {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count),
                                 compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    static let largeHeader = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE HealthData [
        <!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>
        ]>
        <HealthData locale="en_US">

        """

    /// A heart-rate sample, and every 50th a mindful session with a start of its own.
    static func largePiece(_ index: Int) -> String {
        let date = "2020-\(pad(1 + index / 40_320 % 12))-\(pad(1 + index / 1_440 % 28)) \(pad(index / 60 % 24)):\(pad(index % 60)):00 -0500"
        if index % 50 == 0 {
            // Half a minute long: a session of no length is skipped at the door.
            let end = date.replacingOccurrences(of: ":00 -0500", with: ":30 -0500")
            return " <Record type=\"HKCategoryTypeIdentifierMindfulSession\" sourceName=\"Test Watch\" "
                + "startDate=\"\(date)\" endDate=\"\(end)\"/>\n"
        }
        return " <Record type=\"HKQuantityTypeIdentifierHeartRate\" sourceName=\"Test Watch\" sourceVersion=\"10.0\" "
            + "device=\"&lt;&lt;HKDevice: 0x0&gt;, name:Apple Watch, manufacturer:Apple Inc.&gt;\" unit=\"count/min\" "
            + "creationDate=\"\(date)\" startDate=\"\(date)\" endDate=\"\(date)\" value=\"\(60 + index % 40)\"/>\n"
    }

    static func largeExport(records count: Int) -> Data {
        var text = largeHeader
        for index in 0..<count { text += largePiece(index) }
        return Data((text + "</HealthData>\n").utf8)
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
