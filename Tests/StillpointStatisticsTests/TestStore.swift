import Foundation
import PracticeLog
import StillpointCore
import StillpointManifest
import StillpointStatistics

/// In-memory practice logs for tests, and running prepared manifest entries over them.
enum TestStore {
    /// A fresh in-memory store holding `sessions`.
    static func container(_ sessions: [ExampleSession]) async throws -> PersistentContainer {
        try await StatisticExample.store(holding: sessions)
    }

    /// Each entry's result by name, computed in a background context of its own.
    static func run(_ entries: [PreparedEntry], in container: PersistentContainer) async throws -> [String: StatisticValue] {
        var values: [String: StatisticValue] = [:]
        for entry in entries {
            let prepared = entry.prepared
            values[entry.name] = try await container.newBackgroundContext().perform { context in
                try prepared.compute(context)
            }.value
        }
        return values
    }

    /// The folder of the repository these tests were built from.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
