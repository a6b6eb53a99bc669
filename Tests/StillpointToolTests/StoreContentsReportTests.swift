import Foundation
import PracticeLog
import StillpointCore
import StillpointSQLite
import Testing

/// End to end: a store may hold rows no session can have (an old import stored an infinite duration). Every
/// report of it still works, in every format, and such rows change nothing.
@Suite("stillpoint report over rows no session can have", .serialized)
struct StoreContentsReportTests {
    /// Adds rows with the given starts and durations (seconds since 1970, seconds) straight into the store.
    static func addRows(_ rows: [(start: Double, duration: Double)], to store: String) async throws {
        let container = try PersistentContainer(schema: Session.schema, location: .file(URL(fileURLWithPath: store)))
        try await container.performBackgroundTask { context in
            let practitioner = try Practitioners.object(Practitioner.defaultID, in: context)
            for (index, row) in rows.enumerated() {
                let session = context.insert(Session.self)
                try session.set(Session.practitioner, to: practitioner)
                session[Session.start] = Date(timeIntervalSince1970: row.start)
                session[Session.duration] = row.duration
                session[Session.kind] = "yoga"
                session[Session.source] = "old_import"
                session[Session.key] = "bad-row-\(index)"
            }
            try await context.save()
        }
    }

    /// 2025-05-20 07:00 UTC, inside the demo history and before the report's instant.
    static let may: Double = 1_747_724_400

    static let badRows: [(start: Double, duration: Double)] = [
        (may, .infinity), (may, -.infinity), (may, 1e300), (may, Double.greatestFiniteMagnitude), (may, -600), (may, 0),
        (may, 1e19),
        (-62_135_596_800, 600),   // year 1
        (-1e300, 600), (-.infinity, 600), (1e300, 600),
        (253_402_214_400, 600),   // year 9999, after the report's instant
    ]

    @Test(.timeLimit(.minutes(3)))
    func everyFormatReportsAStoreHoldingThemAndTheyChangeNothing() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let formats = ["text", "json", "markdown", "csv", "html"]
        func reports() async throws -> [String: String] {
            var outputs: [String: String] = [:]
            for format in formats {
                let output = tool.path("report.\(format)")
                let result = try await tool.run(["report", "--store", store, "--format", format, "--as-of", ReportCommandTests.asOf,
                                           "--output", output])
                #expect(result.status == 0, "\(format): status \(result.status); \(result.standardError)")
                outputs[format] = try? String(contentsOfFile: output, encoding: .utf8)
            }
            return outputs
        }
        let before = try await reports()
        try await Self.addRows(Self.badRows, to: store)
        let after = try await reports()
        for format in formats {
            let text = try #require(after[format], "no \(format) report")
            #expect(text.firstMatch(of: /(?i)\b(inf|infinity|nan)\b/) == nil, "\(format): \(text.prefix(2_000))")
            #expect(text == before[format], "\(format): the rows no session can have changed the report")
        }
        #expect(after["json"]?.contains("\"value\": 1500") == true)
    }

    @Test func anEmptyStoreReportsInEveryFormat() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("empty.sqlite")
        let created = try await tool.run(["demo", "--sessions", "0", "--store", store])
        #expect(created.status == 0, "\(created.standardError)")
        for format in ["text", "json", "markdown", "csv", "html"] {
            let result = try await tool.run(["report", "--store", store, "--format", format, "--as-of", ReportCommandTests.asOf])
            #expect(result.status == 0, "\(format): \(result.standardError)")
            #expect(result.standardOutput.firstMatch(of: /(?i)\b(inf|infinity|nan)\b/) == nil)
        }
    }
}
