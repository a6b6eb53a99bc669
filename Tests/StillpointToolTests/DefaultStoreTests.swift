import Foundation
import PracticeLog
import StillpointCore
import StillpointDefaultStore
import Testing
@testable import StillpointTool

/// The default store: made once from a demo history, whoever asks first, with nothing half made left behind.
@Suite("Default store")
struct DefaultStoreTests {
    private func home() throws -> (environment: [String: String], directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-home-\(UUID().uuidString)")
        return (["STILLPOINT_HOME": directory.path], directory)
    }

    @Test func severalOpensAtOnceMakeOneStore() async throws {
        let (environment, directory) = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        let now = Date(timeIntervalSince1970: 1_748_736_000)
        let results = try await withThrowingTaskGroup(of: (Bool, Bool, Int).self) { group in
            for index in 0..<3 {
                group.addTask {
                    let (container, created) = try await DefaultStore.open(environment: environment, now: now,
                                                                           access: index == 0 ? .readWrite : .readOnly)
                    let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Session.self)) }
                    let readOnly = container.isReadOnly
                    try container.close()
                    return (created, readOnly, count)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter(\.0).count == 1)
        #expect(results.allSatisfy { $0.2 == DefaultStore.demoSessions })
        #expect(results.filter(\.1).count == 2)
        #expect(DefaultStore.partials(in: directory).isEmpty)
    }

    @Test func aPartialStoreOfAKilledFirstRunIsRemoved() async throws {
        let (environment, directory) = try home()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in ["practice.partial-99999-deadbeef.sqlite", "practice.partial-99999-deadbeef.sqlite-wal"] {
            #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data("x".utf8)))
        }
        let (container, created) = try await DefaultStore.open(environment: environment, access: .readOnly)
        try container.close()
        #expect(created)
        #expect(DefaultStore.partials(in: directory).isEmpty)
        #expect(FileManager.default.fileExists(atPath: DefaultStore.url(environment: environment).path))
    }
}
