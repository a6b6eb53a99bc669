import Foundation
import PracticeLog
import StillpointCore
import StillpointTestSupport
import Testing

/// A bulk load through a CSV practitioner column (`import --practitioner-column`): the practitioners it meets
/// made, one import run per practitioner with each session linked to its own, bad cells skipped with their line
/// and column, `strict`, and each practitioner's earlier run replaced; on SQLite and PostgreSQL.
@Suite("SessionImport with a practitioner column")
struct SessionImportPractitionerColumnTests {
    static let importer = GenericCSVImporter(startColumn: "start", duration: .seconds("duration"), practitionerColumn: "user")

    /// Two sessions each for alice, bob and carol (alice's and bob's first at the same time), then `bad` rows.
    static func bulkFile(bad: [String] = []) -> String {
        let rows = [
            "alice,2024-03-01T07:00:00Z,600", "bob,2024-03-01T07:00:00Z,600", "carol,2024-03-02T07:00:00Z,900",
            "alice,2024-03-03T07:00:00Z,1200", "bob,2024-03-04T07:00:00Z,300", "carol,2024-03-05T07:00:00Z,450",
        ]
        return (["user,start,duration"] + rows + bad).joined(separator: "\n") + "\n"
    }

    static func sessions(of practitioner: String, in container: PersistentContainer) async throws -> Int {
        try await container.newBackgroundContext().perform { context in
            try context.count(for: FetchRequest(Session.self, predicate: try FetchPredicate("practitioner.id == %@", practitioner)))
        }
    }

    @Test(arguments: PracticeStore.all)
    func makesThePractitionersItMeetsWithOneRunEach(store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        // alice is there already, with a home zone that the load leaves as it was.
        try await Practitioners.add("alice", name: "Alice", timeZone: "Europe/Berlin", in: container)
        let url = try SessionImportTests.write(Self.bulkFile(bad: [",2024-03-06T07:00:00Z,600", "da\u{7}ve,2024-03-06T07:00:00Z,600"]))

        let opened = try SessionImport(file: url.path, importer: Self.importer).open()
        #expect(opened.practitioners == ["alice", "bob", "carol"])
        let result = try await opened.run(into: container)

        #expect(result.isComplete)
        #expect(result.summary.inserted == 6)
        #expect(result.summary.skipped == 2)
        #expect(result.summary.issues.map(\.position) == [8, 9])
        #expect(result.summary.issues.first?.reason.contains("practitioner column 'user' is empty") == true,
                "\(result.summary.issues)")
        #expect(result.summary.issues.last?.reason.contains("practitioner column 'user' holds a control character") == true,
                "\(result.summary.issues)")
        #expect(result.runs.map(\.practitioner) == ["alice", "bob", "carol"])
        #expect(result.runs.map(\.summary.inserted) == [2, 2, 2])

        let listed = try await Practitioners.list(in: container)
        #expect(listed.map(\.id) == ["alice", "bob", "carol"])
        #expect(listed.map(\.sessions) == [2, 2, 2])
        #expect(listed.first?.timeZone == "Europe/Berlin")

        // One run per practitioner, of their own sessions only, each recording what it did.
        let runs = try await ImportRuns.list(in: container)
        #expect(Set(runs.map(\.id)) == Set(result.runs.map(\.run)))
        let rowIDs = try await Practitioners.rowIDs(of: ["alice", "bob", "carol"], in: container)
        for practitionerRun in result.runs {
            let run = try #require(runs.first { $0.id == practitionerRun.run })
            #expect(run.practitioner == rowIDs[practitionerRun.practitioner])
            #expect(run.sessions == 2)
            #expect(run.inserted == 2)
            #expect(run.isComplete)
        }
        for practitionerRun in result.runs {
            #expect(try await Self.sessions(of: practitionerRun.practitioner, in: container) == 2)
            let others = try await container.newBackgroundContext().perform { context in
                try context.count(for: FetchRequest(Session.self, predicate: try FetchPredicate(
                    "ANY importRuns._id == %@ AND practitioner.id != %@", practitionerRun.run, practitionerRun.practitioner)))
            }
            #expect(others == 0, "\(practitionerRun.practitioner)'s run is linked to another practitioner's sessions")
        }
    }

    @Test(arguments: PracticeStore.all)
    func importingAgainReplacesEachPractitionersEarlierRunOnly(store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        // dave's run of another file must stay, and so must alice's run of a file of her own.
        let dave = try await SessionImport(file: try SessionImportTests.write("start,duration\n2024-03-01T07:00:00Z,600\n").path,
                                           importer: GenericCSVImporter()).open().run(into: container, practitioner: "dave")
        let url = try SessionImportTests.write(Self.bulkFile())
        let first = try await SessionImport(file: url.path, importer: Self.importer).open().run(into: container)
        let again = try await SessionImport(file: url.path, importer: Self.importer).open().run(into: container)
        #expect(again.summary.unchanged == 6)
        #expect(again.runs.map(\.summary.unchanged) == [2, 2, 2])
        #expect(Set(again.replacedRuns.map(\.id)) == Set(first.runs.map(\.run)))
        #expect(again.removedByReplacing == 0)
        #expect(Set(try await ImportRuns.list(in: container).map(\.id)) == Set(again.runs.map(\.run) + [dave.run]))
        #expect(try await Self.sessions(of: "bob", in: container) == 2)
        #expect(try await Self.sessions(of: "dave", in: container) == 1)
    }

    @Test func strictRefusesABadPractitionerCellBeforeAnyStoreIsTouched() throws {
        let url = try SessionImportTests.write(Self.bulkFile(bad: ["  ,2024-03-06T07:00:00Z,600"]))
        do {
            _ = try SessionImport(file: url.path, importer: Self.importer, strict: true).open()
            Issue.record("a strict import of a row without its practitioner opened")
        } catch SessionImportError.wouldSkipRows(let count, let first) {
            #expect(count == 1)
            #expect(first.map(\.line) == [8])
            #expect(first.first?.reason.contains("practitioner column 'user' is empty") == true)
        }
    }

    @Test func aPipeIsKeptInAFileToBeReadTwice() async throws {
        let fifo = try SessionImportTests.scratch().appendingPathComponent("users.pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let text = Self.bulkFile()
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo.path) {
                handle.write(Data(text.utf8))
                try? handle.close()
            }
        }
        writer.start()
        let sessionImport = SessionImport(file: fifo.path, importer: Self.importer)
        let input = try sessionImport.keepInput()
        #expect(input.isCopy)
        let opened = try sessionImport.open(input)
        #expect(opened.practitioners == ["alice", "bob", "carol"])
        #expect(!opened.contentHash.isEmpty)
    }
}
