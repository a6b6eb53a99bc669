import Foundation
import StillpointCore

extension PersistentContainer {
    /// The history after `token` once it holds at least `count` change sets, or as it is after `limit`.
    ///
    /// PostgreSQL hands out a just-committed change set only once every transaction that started before it has
    /// ended, anywhere on the server: another test's open transaction holds it back for a moment (it is never
    /// skipped). SQLite's history is complete at once, so there this reads once.
    ///
    /// The history's token is past what it holds: the way to a token after a test's own saves, where
    /// ``currentHistoryToken()`` on PostgreSQL may still sit below them.
    func history(after token: HistoryToken, reaching count: Int, within limit: Duration = .seconds(60)) async throws -> ChangeHistory {
        let deadline = ContinuousClock.now + limit
        var history = try self.history(after: token)
        while history.count < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            history = try self.history(after: token)
        }
        return history
    }
}
