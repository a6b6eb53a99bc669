import Foundation
import StillpointCore

extension DemoHistory {
    /// The `source` of every demo session.
    public static let source = "demo"

    /// Removes every demo session from the store (one batch delete), and returns how many there were, so that a
    /// person's own sessions are never counted with generated ones.
    @discardableResult
    public static func removeSessions(from container: PersistentContainer) async throws -> Int {
        try await container.newBackgroundContext(name: "demo removal").perform { context in
            let request = FetchRequest(Session.self, predicate: Session.source == source)
            guard try context.count(for: request) > 0 else { return 0 }
            return try await context.batchDelete(request).count
        }
    }
}
