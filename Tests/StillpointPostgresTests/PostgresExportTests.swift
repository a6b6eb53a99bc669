import Foundation
@testable import StillpointCore
@testable import StillpointSQLite
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// Exports from PostgreSQL write the very bytes an export from SQLite writes for the same rows: CSV and JSON
/// Lines through the public ``ExportOperation`` on a container of each store, from a server-side cursor read in
/// chunks on PostgreSQL.
@Suite("PostgreSQL exports", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct PostgresExportTests {
    let connection: PostgresConnection
    let container: PersistentContainer
    let postgres: PersistentContainer

    /// The agreement fixture's rows, then rows with text every format must escape, doubles at the edges of their
    /// text forms (and -0 and NaN, which SQLite stores as 0 and NULL), dates before 1970 and with fractions below a
    /// millisecond.
    static let rows: [ContiguousArray<AttributeValue>] = {
        var rows = Practice.rows.indices.map(Practice.values)
        let awkward: [(String?, Double?, Double?)] = [
            ("comma, inside", 0.1 + 0.2, 1_700_000_000.123456),
            ("a \"quoted\" word", 1.7976931348623157e308, -1.5),
            ("two\nlines\tand a tab", -2.2250738585072014e-308, -62_135_596_800),
            ("crlf\r\nend\\back\\slash", 123_456_789.125, 253_402_300_799.999),
            (" padded ", 1e22, 1e-3),
            ("\u{1}control\u{1F} and \u{7F}", .infinity, 86_399.9995),
            ("line\u{2028}separator, next\u{85}line, emoji 🧘‍♀️", -.infinity, nil),
            ("tab\tonly", .leastNonzeroMagnitude, 0.0005),
            ("semi;colon 'single'", 4_503_599_627_370_497, -0.0015),
            ("negative zero", -0.0, -0.0),
            ("not a number", .nan, .nan),
        ]
        for (offset, (text, score, at)) in awkward.enumerated() {
            let uid = Int64(rows.count + 1)
            rows.append([
                .integer(uid), text.map(AttributeValue.string) ?? .null, .string("note \(offset)\r"), .integer(Int64.min + Int64(offset)),
                score.map(AttributeValue.double) ?? .null, at.map { .date(Date(timeIntervalSince1970: $0)) } ?? .null,
                .bool(offset % 2 == 0), .uuid(UUID()), .binary(Data((0..<UInt8(offset * 7)).map { $0 &* 37 })),
            ])
        }
        return rows
    }()

    init() throws {
        let uri = try PostgresTestServer.shared().makeDatabase("exports")
        let schema = try Schema([Practice.self])
        postgres = try PersistentContainer(schema: schema, postgres: uri)
        connection = try PostgresConnection(uri: uri)
        try PostgresRowInsert(Practice.entity).insert(Self.rows, on: connection)
        container = try PersistentContainer(schema: schema, location: .inMemory)
    }

    func fillSQLite() async throws {
        try await container.performBackgroundTask { context in
            for values in Self.rows {
                let object = context.insert(Practice.self)
                for (attribute, value) in zip(Practice.entity.attributes, values) {
                    try object.setValue(value, forKey: attribute.name)
                }
            }
            try await context.save()
        }
    }

    /// Runs `operation` on a queue of `container` and returns its rows.
    func export(_ operation: ExportOperation, from container: PersistentContainer) async throws -> Int {
        let queue = ContextOperationQueue(container: container)
        queue.addOperation(operation)
        return try await operation.value
    }

    /// The files the export `makeExport` makes writes from SQLite and from PostgreSQL.
    func files(_ makeExport: (URL) -> ExportOperation) async throws -> (sqlite: Data, postgres: Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sqliteURL = folder.appendingPathComponent("sqlite.out"), postgresURL = folder.appendingPathComponent("postgres.out")

        let sqliteRows = try await export(makeExport(sqliteURL), from: container)
        let postgresRows = try await export(makeExport(postgresURL), from: postgres)
        #expect(postgresRows == sqliteRows)
        return (try Data(contentsOf: sqliteURL), try Data(contentsOf: postgresURL))
    }

    @Test func csvAndJSONLinesAreByteForByteSQLites() async throws {
        try await fillSQLite()
        let sorted = FetchRequest(Practice.self, sortedBy: [.ascending(Practice.uid)])
        var byName = FetchRequest(Practice.self, sortedBy: [.descending(Practice.name), .ascending(Practice.score)])
        byName.batchSize = 3
        var window = FetchRequest(Practice.self, predicate: try FetchPredicate("minutes != nil AND name CONTAINS[cd] 'e'"),
                                  sortedBy: [.ascending(Practice.at)])
        window.limit = 4
        window.offset = 1
        let formats: [any ExportFormat] = [CSVExportFormat.csv, JSONLinesExportFormat.jsonLines,
                                           CSVExportFormat.csv(delimiter: "\t", lineEnding: "\n"), ValuesCSVFormat()]
        for format in formats {
            for (request, columns) in [(sorted, nil), (byName, ["name", "score", "token", "data"]), (window, ["at", "note", "done"])] {
                let (sqlite, postgres) = try await files { ExportOperation(request, columns: columns, format: format, to: $0) }
                #expect(sqlite.count > 40)
                #expect(postgres == sqlite, "\(type(of: format)) of \(columns ?? ["*"]): \(Self.firstDifference(sqlite, postgres))")
            }
        }
    }

    @Test func streamsChunkAfterChunk() async throws {
        // More rows than one FETCH holds, so the cursor is read several times; the rows come in order, each once.
        let many = (0..<(PostgresCursor.chunk * 2 + 17)).map { index -> ContiguousArray<AttributeValue> in
            [.integer(Int64(1_000 + index)), .string("row \(index)"), .null, .integer(Int64(index)), .double(Double(index) / 8),
             .null, .null, .null, .null]
        }
        try PostgresRowInsert(Practice.entity).insert(many, on: connection)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("many.csv")
        let request = FetchRequest(Practice.self, predicate: try FetchPredicate("uid >= 1000"), sortedBy: [.ascending(Practice.uid)])
        let operation = ExportOperation(request, columns: ["uid", "name", "score"], format: .csv(lineEnding: "\n"), to: url)
        #expect(try await export(operation, from: postgres) == many.count)
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == many.count + 1)
        #expect(lines.first == "uid,name,score")
        #expect(lines.dropFirst().enumerated().allSatisfy { index, line in line == "\(1_000 + index),row \(index),\(Double(index) / 8)" })
    }

    /// The operation's writing code over a reader of its own, with a checkpoint every `batchSize` rows.
    @Test func checkpointsComeEveryBatchAndAThrowingOneStopsTheExport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("stopped.csv")
        var request = FetchRequest(Practice.self)
        request.batchSize = 2
        let export = ExportOperation(request, format: .csv, to: url)
        var checkpoints: [Int] = []
        let written = try export.write(reading: { body in try PostgresStoreConnection.reading(on: connection) { try body($0) } },
                                       checkpoint: { checkpoints.append($0) })
        #expect(written == Self.rows.count && checkpoints == Array(stride(from: 2, through: written, by: 2)))
        try FileManager.default.removeItem(at: url)
        #expect(throws: CancellationError.self) {
            try export.write(reading: { body in try PostgresStoreConnection.reading(on: connection) { try body($0) } },
                             checkpoint: { _ in throw CancellationError() })
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // The connection is usable afterwards: the transaction rolled back, the cursor with it.
        #expect(try PostgresStoreConnection.reading(on: connection) { try $0.count(request) } == Self.rows.count)
    }

    static func firstDifference(_ expected: Data, _ actual: Data) -> String {
        let (expected, actual) = (Array(expected), Array(actual))
        let index = zip(expected, actual).enumerated().first { $1.0 != $1.1 }?.offset ?? min(expected.count, actual.count)
        func around(_ data: [UInt8]) -> String {
            String(decoding: data[max(0, index - 60)..<min(data.count, index + 60)], as: UTF8.self).debugDescription
        }
        return "at byte \(index): expected \(around(expected)), got \(around(actual))"
    }
}
