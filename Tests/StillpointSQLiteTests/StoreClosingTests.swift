import Foundation
import StillpointCore
@testable import StillpointSQLite
import Testing

/// A store closes between accesses: the close waits for the reads under way, and a read after it fails with an
/// error instead of reaching a closed connection (which crashed the process in SQLite).
@Suite("closing a SQLite store")
struct StoreClosingTests {
    enum Note: Entity {
        static let text = Attribute<String>("text")
        static let entity = EntityDescription("Note", attributes: [text])
    }

    struct Closed: Error {}

    @Test func theGateWaitsForTheAccessUnderWayAndRefusesLaterOnes() async throws {
        let gate = AccessGate()
        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let ended = LockedState<[String]>([])
        Thread {
            _ = try? gate.access(orThrow: { Closed() }) {
                inside.signal()
                release.wait()
                ended.withLock { $0.append("access") }
            }
        }.start()
        inside.wait()
        let closing = Thread {
            gate.close()
            ended.withLock { $0.append("close") }
        }
        closing.start()
        try await Task.sleep(for: .milliseconds(100))
        #expect(ended.withLock { $0 }.isEmpty, "the gate closed under an access")
        release.signal()
        while ended.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(ended.withLock { $0 } == ["access", "close"])
        #expect(gate.isClosed)
        #expect(throws: Closed.self) { try gate.access(orThrow: { Closed() }) { 1 } }
    }

    @Test func readsStartingWhileTheStoreClosesFailCleanly() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("closing-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        let schema = try Schema([Note.self])
        for _ in 0..<20 {
            let container = try PersistentContainer(schema: schema, location: .file(url))
            try await container.performBackgroundTask { context in
                context.insert(Note.self)[Note.text] = "kept"
                try await context.save()
            }
            let readers = (0..<4).map { _ in
                Task.detached {
                    var failures = 0
                    for _ in 0..<50 {
                        do { _ = try container.newBackgroundContext().performAndWait { try $0.count(for: FetchRequest(Note.self)) } }
                        catch { failures += 1 }
                    }
                    return failures
                }
            }
            try await Task.sleep(for: .milliseconds(2))
            try container.close()
            for reader in readers { _ = await reader.value }
        }
    }
}
