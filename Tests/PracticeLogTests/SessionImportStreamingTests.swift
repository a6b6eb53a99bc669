import Foundation
import PracticeLog
import StillpointCore
import StillpointTestSupport
import Testing

/// An import from a streamed body (what an HTTP request's body is): kept in a temporary file of bounded size, the run
/// recorded for the practitioner named, the runs listed and removed within that practitioner's only, and an earlier
/// run replaced only among the practitioner's own; on SQLite and PostgreSQL.
@Suite("SessionImport from a streamed body")
struct SessionImportStreamingTests {
    static let importer = InsightTimerImporter(timeZone: TimeZone(identifier: "UTC"))

    /// The bytes of `text` in chunks of `size`, as an HTTP body arrives.
    static func chunks(_ text: String, size: Int) -> AsyncStream<ArraySlice<UInt8>> {
        let bytes = Array(text.utf8)
        return AsyncStream { continuation in
            for start in stride(from: 0, to: bytes.count, by: size) { continuation.yield(bytes[start..<min(start + size, bytes.count)]) }
            continuation.finish()
        }
    }

    private func makeStore(_ store: PracticeStore) async throws -> PersistentContainer {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        try await Practitioners.add("alice", in: container)
        try await Practitioners.add("bob", in: container)
        return container
    }

    private func importing(_ text: String, for practitioner: String, into container: PersistentContainer,
                           limit: Int = 1 << 20) async throws -> SessionImportResult {
        let upload = SessionImport(file: "upload", importer: Self.importer)
        return try await upload.open(streaming: Self.chunks(text, size: 7), limit: limit).run(into: container, practitioner: practitioner)
    }

    private func rowID(_ id: String, _ container: PersistentContainer) async throws -> Int64 {
        try #require(try await Practitioners.find(id, in: container)).rowID
    }

    private func count(_ id: String, _ container: PersistentContainer) async throws -> Int {
        try await SessionPage.fetch(for: id, limit: SessionPage.maximumLimit, in: container).rows.count
    }

    @Test(arguments: PracticeStore.all)
    func aStreamedBodyIsImportedAsARunOfThePractitioner(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        let result = try await importing(SessionImportTests.export(4), for: "alice", into: container)
        #expect(result.summary.inserted == 4)
        #expect(result.isComplete)
        let alices = try await ImportRuns.list(in: container, practitioner: try await rowID("alice", container))
        #expect(alices.map(\.id) == [result.run])
        #expect(alices.first?.file == "upload")
        #expect(alices.first?.contentHash.isEmpty == false)
        #expect(alices.first?.sessions == 4)
        #expect(try await ImportRuns.list(in: container, practitioner: try await rowID("bob", container)).isEmpty)
        #expect(try await count("alice", container) == 4)
        #expect(try await count("bob", container) == 0)
    }

    /// A body past the limit: refused, its copy so far closed (no descriptor of the process reaches it any more), and
    /// nothing recorded or imported.
    @Test(arguments: PracticeStore.all)
    func aBodyPastTheLimitLeavesNothing(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        let directory = try SessionImportTests.scratch()
        let text = SessionImportTests.export(50)
        await #expect(throws: SessionImportError.bodyTooLarge(limit: 100)) {
            _ = try await SessionImportInput(spooling: Self.chunks(text, size: 30), limit: 100, directory: directory)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { fd in
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
        }
        #expect(!open.contains { $0.hasPrefix(directory.path) }, "\(open)")
        await #expect(throws: SessionImportError.bodyTooLarge(limit: 100)) {
            try await importing(text, for: "alice", into: container, limit: 100)
        }
        #expect(try await ImportRuns.list(in: container).isEmpty)
        #expect(try await count("alice", container) == 0)
        // At the limit exactly, the body is whole.
        let exact = try await SessionImportInput(spooling: Self.chunks(text, size: 30), limit: text.utf8.count, directory: directory)
        #expect(try Data(contentsOf: exact.url) == Data(text.utf8))
    }

    @Test(arguments: PracticeStore.all)
    func anotherPractitionersRunIsNotFound(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        let alices = try await importing(SessionImportTests.export(3), for: "alice", into: container)
        let bob = try await rowID("bob", container)
        #expect(try await ImportRuns.remove(alices.run, from: container, practitioner: bob) == nil)
        #expect(try await ImportRuns.remove(alices.run + 1_000, from: container, practitioner: bob) == nil)
        #expect(try await count("alice", container) == 3)
        #expect(try await ImportRuns.remove(alices.run, from: container, practitioner: try await rowID("alice", container)) == 3)
        #expect(try await count("alice", container) == 0)
        #expect(try await ImportRuns.list(in: container).isEmpty)
    }

    /// Alice and Bob import the same file; Alice imports it again: her earlier run is replaced, Bob's stays.
    @Test(arguments: PracticeStore.all)
    func importingAgainReplacesThePractitionersOwnRunsOnly(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        let text = SessionImportTests.export(3)
        let first = try await importing(text, for: "alice", into: container)
        let bobs = try await importing(text, for: "bob", into: container)
        let again = try await importing(text, for: "alice", into: container)
        #expect(again.replacedRuns.map(\.id) == [first.run])
        #expect(try await ImportRuns.list(in: container).map(\.id).sorted() == [bobs.run, again.run].sorted())
        #expect(try await count("alice", container) == 3)
        #expect(try await count("bob", container) == 3)
    }
}
