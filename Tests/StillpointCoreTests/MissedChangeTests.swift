import Foundation
import StillpointPostgres
import StillpointPostgresTestSupport
import Testing
@testable import StillpointCore

/// A change from another process reaches an automatically merging context on PostgreSQL even when the doorbell
/// (`NOTIFY`) never rings, or when the merge's read fails: within the watcher's interval, not at some later commit,
/// and not by luck of load. A suite of its own: its database hears no other suite's doorbells.
@Suite("PostgreSQL: a change whose doorbell or merge is missed", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct MissedChangeTests {
    /// A URI for the schema of `uri` whose saves ring no doorbell: its `pg_notify` is one of the schema's own,
    /// which does nothing, found before PostgreSQL's on the search path. As a writer that cannot notify would.
    static func silentURI(_ uri: String) throws -> String {
        let schema = try #require(uri.range(of: "search_path%3D").map { String(uri[$0.upperBound...]) })
        try PostgresConnection(uri: uri).execute(
            "CREATE FUNCTION \(schema).pg_notify(text, text) RETURNS void LANGUAGE plpgsql AS $$ BEGIN END $$")
        return uri + ",pg_catalog"
    }

    /// A reporter with a watcher every `interval` and a context that merges automatically, holding item 1; a
    /// second process's container on the same store whose saves ring no doorbell; and a listener that checks
    /// they do not.
    private func setUp(interval: Duration, reporterOptions: String = "") async throws
        -> (reporter: PersistentContainer, watcher: Task<Void, Never>, reader: ObjectContext, id: ObjectID,
            importer: PersistentContainer, uri: String, doorbell: PostgresConnection) {
        guard let uri = try await TestStore.postgres.makeLocation().postgresURI else { throw CancellationError() }
        let reporter = try makeContainer(at: .postgres(uri + reporterOptions))
        try await insertItems([1], in: reporter)
        let watcher = reporter.observeOtherProcesses(every: interval)
        let reader = reporter.newBackgroundContext()
        await reader.setAutomaticallyMergesChangesFromParent(true)
        let id = try await reader.perform { try $0.fetch(FetchRequest(Item.self))[0].objectID }
        let importer = try makeContainer(at: .postgres(try Self.silentURI(uri)))
        let doorbell = try PostgresConnection(uri: uri)
        try doorbell.execute("LISTEN \(PostgresChangeLog.channel)")
        // Past the rings of the watcher's start: the change below can come only from looking at the log.
        try await Task.sleep(for: .milliseconds(300))
        return (reporter, watcher, reader, id, importer, uri, doorbell)
    }

    private func retitle(_ id: ObjectID, in importer: PersistentContainer) async throws {
        try await importer.performBackgroundTask { context in
            try context.existingObject(with: id)[Item.title] = "from the other process"
            try await context.save()
        }
    }

    /// Waits up to `timeout` for the reader to hold the other process's title; returns what it holds then.
    private func title(of id: ObjectID, in reader: ObjectContext, within timeout: Duration) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let title = await reader.perform { context in context.registeredObject(for: id)?[Item.title] }
            if title == "from the other process" || ContinuousClock.now >= deadline { return title }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The watcher looks at the change log every interval (20 s here): a save that rang no doorbell is merged
    /// after that look, before the listener's ring of every ten intervals (200 s) could bring it, and without
    /// another commit. The margin is wide (150 s) because in a whole test run the blocking tool tests can hold the
    /// two threads of the cooperative pool that the merge goes through for tens of seconds (the set-up then takes
    /// over a minute too); only a watcher that waits for the ring of every ten fails it.
    @Test func aChangeThatRangNoDoorbellIsMergedWithinTheInterval() async throws {
        let (reporter, watcher, reader, id, importer, _, doorbell) = try await setUp(interval: .seconds(20))
        defer { withExtendedLifetime(reporter) { watcher.cancel() } }
        try await retitle(id, in: importer)
        #expect(try doorbell.notifications(waitingUpTo: .milliseconds(200)).isEmpty, "the save rang the doorbell")
        let title = try await title(of: id, in: reader, within: .seconds(150))
        #expect(title == "from the other process")
    }

    /// The merge's read fails (the server cancels it: a lock holds it past the reporter's `statement_timeout`):
    /// the context merges the change set again by itself once the read can be made, without another change.
    @Test func aMergeWhoseReadFailedIsMadeAgainByItself() async throws {
        // A long interval: the lock below is taken long before the watcher looks at the log.
        let (reporter, watcher, reader, id, importer, uri, _) = try await setUp(
            interval: .seconds(2), reporterOptions: "%20-cstatement_timeout%3D300")
        defer { withExtendedLifetime(reporter) { watcher.cancel() } }
        let lock = try PostgresConnection(uri: uri)
        try lock.execute("BEGIN")
        try await retitle(id, in: importer)
        try lock.execute(#"LOCK TABLE "Item" IN ACCESS EXCLUSIVE MODE"#)
        // The watcher finds the change in the log and publishes it; the merge's read of the item times out.
        let failed = try await {
            let deadline = ContinuousClock.now + .seconds(30)
            while await reader.lastMergeError == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            return await reader.lastMergeError
        }()
        #expect(failed is StoreError, "\(String(describing: failed))")
        try lock.execute("ROLLBACK")
        // Within the minute the context retries for, with room for a loaded pool (as for the test above).
        let title = try await title(of: id, in: reader, within: .seconds(50))
        #expect(title == "from the other process")
    }
}
