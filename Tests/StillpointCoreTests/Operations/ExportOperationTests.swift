import Foundation
import Testing
@testable import StillpointCore

/// CSV through the public row API only: an export with it takes the path of formats without a byte encoder.
struct PlainCSVFormat: ExportFormat {
    static let identifier = "plain_csv"

    func header(columns: [String]) -> String? { CSVExportFormat().header(columns: columns) }

    func appendRow(_ values: [AttributeValue], columns: [String], to output: inout String) {
        CSVExportFormat().appendRow(values, columns: columns, to: &output)
    }
}

/// CSV that stops at its second row until the test opens the gate, to cancel an export mid-file.
struct GatedFormat: ExportFormat {
    static let identifier = "gated_csv"
    let gate: Gate
    let rows = Recorder<Int>()

    func header(columns: [String]) -> String? { CSVExportFormat().header(columns: columns) }

    func appendRow(_ values: [AttributeValue], columns: [String], to output: inout String) {
        rows.append(1)
        if rows.all.count == 2 { gate.wait() }
        CSVExportFormat().appendRow(values, columns: columns, to: &output)
    }
}

@Suite("ExportOperation")
struct ExportOperationTests {
    /// Kitchen rows with awkward text, in uid (`integer`) order.
    private func makeKitchen(_ store: TestStore) async throws -> PersistentContainer {
        let container = try await makeContainer(store)
        try await container.performBackgroundTask { context in
            let texts = ["plain", "comma, inside", "a \"quoted\" word", "two\nlines", " padded ", "", "crlf\r\nend"]
            for (index, text) in texts.enumerated() {
                let object = context.insert(Kitchen.self)
                object[Kitchen.integer] = Int64(index)
                object[Kitchen.double] = Double(index) + 0.5
                object[Kitchen.string] = text
                object[Kitchen.bool] = index % 2 == 0
                object[Kitchen.date] = Date(timeIntervalSince1970: 1_709_623_800 + Double(index) * 86_400.25)
                object[Kitchen.uuid] = UUID(uuidString: "00000000-0000-0000-0000-00000000000\(index)")!
                object[Kitchen.binary] = Data([UInt8(index), 255])
                object[Kitchen.note] = index == 1 ? "note" : nil
            }
            try await context.save()
        }
        return container
    }

    private func export(_ operation: ExportOperation, in container: PersistentContainer) async throws -> Int {
        let queue = ContextOperationQueue(container: container)
        queue.addOperation(operation)
        return try await operation.value
    }

    @Test(arguments: TestStore.all) func csvQuotesWhatNeedsQuotingAndWritesAHeaderAndISODates(store: TestStore) async throws {
        let container = try await makeKitchen(store)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("kitchen.csv")
        let request = FetchRequest(Kitchen.self, sortedBy: [.ascending(Kitchen.integer)])
        let operation = ExportOperation(request, columns: ["integer", "string", "date", "note"], format: .csv, to: url)
        #expect(try await export(operation, in: container) == 7)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text == """
            integer,string,date,note\r
            0,plain,2024-03-05T07:30:00Z,\r
            1,"comma, inside",2024-03-06T07:30:00.250Z,note\r
            2,"a ""quoted"" word",2024-03-07T07:30:00.500Z,\r
            3,"two
            lines",2024-03-08T07:30:00.750Z,\r
            4," padded ",2024-03-09T07:30:01Z,\r
            5,,2024-03-10T07:30:01.250Z,\r
            6,"crlf\r
            end",2024-03-11T07:30:01.500Z,\r

            """)
        #expect(operation.progress.completedUnitCount == 7)
        #expect(operation.progress.totalUnitCount == 7)
    }

    @Test(arguments: TestStore.all) func withoutAWhitelistEveryAttributeIsWrittenInOrder(store: TestStore) async throws {
        let container = try await makeKitchen(store)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("all.csv")
        var request = FetchRequest(Kitchen.self, predicate: try FetchPredicate("integer == 1"))
        request.batchSize = 1
        #expect(try await export(ExportOperation(request, format: .csv(delimiter: ";", lineEnding: "\n"), to: url), in: container) == 1)
        #expect(try String(contentsOf: url, encoding: .utf8) == """
            integer;double;string;bool;date;uuid;binary;note
            1;1.5;comma, inside;false;2024-03-06T07:30:00.250Z;00000000-0000-0000-0000-000000000001;Af8=;note

            """)
    }

    @Test(arguments: TestStore.all) func jsonLinesWritesOneObjectPerRowWithTheColumnsInOrder(store: TestStore) async throws {
        let container = try await makeKitchen(store)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("kitchen.jsonl")
        let request = FetchRequest(Kitchen.self, predicate: try FetchPredicate("integer IN %@", [2, 3, 5]),
                                   sortedBy: [.descending(Kitchen.integer)])
        let columns = ["string", "integer", "double", "bool", "date", "note"]
        #expect(try await export(ExportOperation(request, columns: columns, format: .jsonLines, to: url), in: container) == 3)
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines == [
            #"{"string":"","integer":5,"double":5.5,"bool":false,"date":"2024-03-10T07:30:01.250Z","note":null}"#,
            #"{"string":"two\nlines","integer":3,"double":3.5,"bool":false,"date":"2024-03-08T07:30:00.750Z","note":null}"#,
            #"{"string":"a \"quoted\" word","integer":2,"double":2.5,"bool":true,"date":"2024-03-07T07:30:00.500Z","note":null}"#,
            "",
        ])
        // Each line is JSON that reads back to the stored values.
        let first = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        #expect(first?["string"] as? String == "two\nlines")
    }

    @Test(arguments: TestStore.all) func theCursorWritesWhatTheRowAPIWritesForEveryType(store: TestStore) async throws {
        let container = try await makeKitchen(store)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let request = FetchRequest(Kitchen.self, sortedBy: [.descending(Kitchen.integer)])
        let columns = Kitchen.entity.attributes.map(\.name)
        // The rows as fetched objects, through the formats' public row API.
        let objects = try await container.newBackgroundContext().perform { context in
            try context.fetch(request).map { object in columns.map { object.values[Kitchen.entity.attributePositions[$0]!] } }
        }
        let formats: [(name: String, format: any ExportFormat)] = [
            ("csv", CSVExportFormat.csv), ("semicolon", CSVExportFormat.csv(delimiter: ";", lineEnding: "\n")),
            ("jsonl", JSONLinesExportFormat.jsonLines), ("plain", PlainCSVFormat()),
        ]
        for (name, format) in formats {
            var expected = format.header(columns: columns) ?? ""
            for values in objects { format.appendRow(values, columns: columns, to: &expected) }
            let url = folder.appendingPathComponent("\(name).out")
            let operation = ExportOperation(request, columns: columns, format: format, to: url)
            #expect(try await export(operation, in: container) == 7)
            #expect(try String(contentsOf: url, encoding: .utf8) == expected, "for \(name)")
        }
    }

    @Test(arguments: TestStore.all) func aLargeExportCrossesTheWriteThresholdIntact(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try insertRows(40_000, in: container)  // about 500 KiB of CSV: two writes and a rest
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("rows.csv")
        var request = FetchRequest(Row3.self, predicate: try FetchPredicate("a > 10"), sortedBy: [.descending(Row3.a)])
        request.batchSize = 333
        let operation = ExportOperation(request, columns: ["c", "a", "b"], format: .csv, to: url)
        #expect(try await export(operation, in: container) == 39_990)
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(lines.count == 39_992)
        #expect(lines[0] == "c,a,b")
        #expect(lines[1] == "\(40_000 % 13),40000,\(40_000 % 7)")
        #expect(lines[39_990] == "\(11 % 13),11,\(11 % 7)")
        #expect(lines[39_991] == "")
        #expect(operation.progress.completedUnitCount == 39_990)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["rows.csv"])
    }

    @Test func isoDatesCoverTheCalendar() {
        #expect(ExportText.iso8601(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(ExportText.iso8601(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        #expect(ExportText.iso8601(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(ExportText.iso8601(Date(timeIntervalSince1970: 4_107_542_399.999)) == "2100-02-28T23:59:59.999Z")
        let formatter = ISO8601DateFormatter()
        for seconds in stride(from: -2_000_000_000.0, to: 5_000_000_000, by: 86_399_937) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(ExportText.iso8601(date) == formatter.string(from: date))
        }
    }

    @Test(arguments: TestStore.all) func anUnknownColumnFailsWithTheNearestNameAndWritesNothing(store: TestStore) async throws {
        let container = try await makeKitchen(store)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("bad.csv")
        let operation = ExportOperation(FetchRequest(Kitchen.self), columns: ["integr"], format: .csv, to: url)
        await #expect(throws: SchemaError.self) { _ = try await export(operation, in: container) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test(arguments: TestStore.all) func aCancelledExportLeavesNoPartialFileAndKeepsTheOldOne(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try insertRows(5_000, in: container)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("rows.csv")
        try Data("old export\n".utf8).write(to: url)
        let gate = Gate()
        var request = FetchRequest(Row3.self)
        request.batchSize = 100
        let operation = ExportOperation(request, format: GatedFormat(gate: gate), to: url)
        let queue = ContextOperationQueue(container: container)
        var events = queue.events.makeAsyncIterator()
        queue.addOperation(operation)
        _ = await readEvents(&events) { $0.kindName == "progress" }  // before the file is opened
        // Wait for the gated second row: the temporary file exists beside the destination by then.
        let deadline = ContinuousClock.now + .seconds(300)
        while try FileManager.default.contentsOfDirectory(atPath: folder.path).count < 2 {
            try #require(ContinuousClock.now < deadline, "no temporary file beside the destination")
            try await Task.sleep(for: .milliseconds(1))
        }
        let partial = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".partial") }
        #expect(partial.count == 1)
        operation.cancel()
        gate.open()
        let end = try #require(await readEvents(&events, until: \.isEnd))
        #expect(end.kindName == "cancelled")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["rows.csv"])
        #expect(try String(contentsOf: url, encoding: .utf8) == "old export\n")
    }

    @Test(arguments: TestStore.all) func aFinishedExportReplacesTheOldFile(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try insertRows(2_500, in: container)
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("rows.csv")
        try Data("old export\n".utf8).write(to: url)
        var request = FetchRequest(Row3.self, sortedBy: [.ascending(Row3.a)])
        request.batchSize = 1_000
        let operation = ExportOperation(request, columns: ["a", "c"], format: .csv, to: url)
        #expect(try await export(operation, in: container) == 2_500)
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\r\n")
        #expect(lines.count == 2_502)
        #expect(lines[0] == "a,c")
        #expect(lines[2_500] == "2500,4")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["rows.csv"])
    }
}
