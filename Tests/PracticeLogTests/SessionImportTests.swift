import Foundation
import PracticeLog
import StillpointCore
import StillpointPostgres
import StillpointPostgresTestSupport
import StillpointSQLite
import Testing

/// The import orchestration as a library: the run recorded, sessions saved and linked, a `strict` check first,
/// standard input (here a pipe) kept in a file, the earlier runs of a file replaced; on SQLite and PostgreSQL.
@Suite("SessionImport")
struct SessionImportTests {
    enum Store: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case sqlite, postgres
        static let all = allCases.filter { $0 != .postgres || PostgresTestServer.isWanted }
        var testDescription: String { rawValue }

        func container() throws -> PersistentContainer {
            switch self {
            case .sqlite:
                return try PersistentContainer(schema: Session.schema, location: .file(try SessionImportTests.scratch().appendingPathComponent("store.sqlite")))
            case .postgres:
                return try PersistentContainer(schema: Session.schema, postgres: try PostgresTestServer.shared().makeDatabase("sessionimport"))
            }
        }
    }

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-sessionimport-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// An Insight Timer export of `count` good sessions, then the rows in `bad`.
    static func export(_ count: Int, bad: [String] = []) -> String {
        var lines = ["Started At,Duration,Preset,Activity"]
        for day in 0..<count { lines.append(String(format: "03/%02d/2024 07:00:00,0:20:0,,PracticeType.Meditation", day + 1)) }
        return (lines + bad).joined(separator: "\n") + "\n"
    }

    static func write(_ text: String, named name: String = "sessions.csv") throws -> URL {
        let url = try scratch().appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    static func sessionCount(_ container: PersistentContainer) async throws -> Int {
        try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Session.self)) }
    }

    static let importer = InsightTimerImporter(timeZone: TimeZone(identifier: "UTC"))

    @Test(arguments: Store.all)
    func importsRecordsTheRunAndReplacesAnEarlierOne(store: Store) async throws {
        let container = try store.container()
        defer { try? container.close() }
        let url = try Self.write(Self.export(5, bad: ["03/09/2024 07:00:00,1:x:0,,PracticeType.Meditation"]))
        let first = try await SessionImport(file: url.path, importer: Self.importer, options: "--time-zone UTC").open().run(into: container)
        #expect(first.summary.inserted == 5)
        #expect(first.summary.skipped == 1)
        #expect(first.isComplete)
        #expect(first.replacedRuns.isEmpty)
        let runs = try await ImportRuns.list(in: container)
        #expect(runs.map(\.id) == [first.run])
        #expect(runs.first?.isComplete == true)
        #expect(runs.first?.options == "--time-zone UTC")
        #expect(runs.first?.format == "insight-timer")

        let again = try await SessionImport(file: url.path, importer: Self.importer).open().run(into: container)
        #expect(again.summary.inserted == 0)
        #expect(again.summary.unchanged == 5)
        #expect(again.replacedRuns.map(\.id) == [first.run])
        #expect(again.removedByReplacing == 0)
        #expect(try await ImportRuns.list(in: container).map(\.id) == [again.run])
        #expect(try await Self.sessionCount(container) == 5)
    }

    @Test(arguments: Store.all)
    func aFileThatBreaksOffKeepsWhatCameBeforeAndReplacesNothing(store: Store) async throws {
        let container = try store.container()
        defer { try? container.close() }
        let url = try Self.write(Self.export(3))
        let first = try await SessionImport(file: url.path, importer: Self.importer).open().run(into: container)
        // The same file again, now cut off in an open quote: the rows before it are saved, the earlier run stays.
        try (Self.export(4) + "\"03/20/2024 07:00:00,0:20:0,,PracticeType.Meditation\n").write(to: url, atomically: true, encoding: .utf8)
        let broken = try await SessionImport(file: url.path, importer: Self.importer).open().run(into: container)
        #expect(broken.stop != nil)
        #expect(!broken.isComplete)
        #expect(broken.summary.inserted == 1)
        #expect(broken.replacedRuns.isEmpty)
        #expect(Set(try await ImportRuns.list(in: container).map(\.id)) == [first.run, broken.run])
        #expect(try await Self.sessionCount(container) == 4)
    }

    @Test func strictRefusesBeforeAnyStoreIsTouched() throws {
        let url = try Self.write(Self.export(2, bad: ["03/09/2024 07:00:00,1:x:0,,PracticeType.Meditation", "nonsense"]))
        #expect(throws: SessionImportError.self) { try SessionImport(file: url.path, importer: Self.importer, strict: true).open() }
        do {
            _ = try SessionImport(file: url.path, importer: Self.importer, strict: true).open()
        } catch SessionImportError.wouldSkipRows(let count, let first) {
            #expect(count == 2)
            #expect(first.map(\.line) == [4, 5])
        }
        // Without --strict the same file opens: its bad rows are skipped as it is read.
        _ = try SessionImport(file: url.path, importer: Self.importer).open()
    }

    @Test func aPipeIsKeptInAFileForStrictsTwoReadings() async throws {
        let fifo = try Self.scratch().appendingPathComponent("input.pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let text = Self.export(3)
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo.path) {
                handle.write(Data(text.utf8))
                try? handle.close()
            }
        }
        writer.start()
        let sessionImport = SessionImport(file: fifo.path, importer: Self.importer, strict: true)
        let input = try sessionImport.keepInput()
        #expect(input.isCopy)
        #expect(input.url.path.hasPrefix("/proc/self/fd/"))
        let opened = try sessionImport.open(input)
        // The copy is a file, so the run is known by its content's hash.
        #expect(!opened.contentHash.isEmpty)
        let container = try Store.sqlite.container()
        defer { try? container.close() }
        let result = try await opened.run(into: container)
        #expect(result.summary.inserted == 3)
        #expect(try await ImportRuns.list(in: container).first?.file == fifo.path)
    }

    @Test func aFileIsReadWhereItIs() throws {
        let url = try Self.write(Self.export(1))
        let input = try SessionImport(file: url.path, importer: Self.importer).keepInput()
        #expect(!input.isCopy)
        #expect(input.url == url)
    }

    @Test func cancelledBeforeItRunsItSavesNothing() async throws {
        let container = try Store.sqlite.container()
        defer { try? container.close() }
        let opened = try SessionImport(file: try Self.write(Self.export(3)).path, importer: Self.importer).open()
        opened.cancel()
        let result = try await opened.run(into: container)
        if case .cancelled? = result.outcome {} else { Issue.record("the import was not cancelled: \(String(describing: result.outcome))") }
        #expect(!result.isComplete)
        #expect(try await Self.sessionCount(container) == 0)
        #expect(try await ImportRuns.list(in: container).first?.isComplete == false)
    }
}
