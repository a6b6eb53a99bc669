import Foundation
import StillpointCore
import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// The examples of `StillpointPostgres.docc`'s articles, run against a throwaway server: its landing page and
/// "The PostgreSQL store".
@Suite(.enabled(if: PostgresTestServer.isWanted))
struct ThePostgreSQLStoreArticleTests {
    enum Note: Entity {
        static let text = Attribute<String>("text")
        static let entity = EntityDescription("Note", attributes: [text])
    }

    let schema: Schema

    init() throws {
        schema = try Schema([Note.self])
    }

    @Test func theLandingPageOpensADatabase() throws {
        let uri = try PostgresTestServer.shared().makeDatabase("landing")
        let container = try PersistentContainer(schema: schema, postgres: uri)   // "postgresql://app@db.example/practice"
        #expect(container.location == .postgres(uri))
        try container.close()
    }

    @Test func openingAndTheChangeLog() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("article")
        let container = try PersistentContainer(schema: schema, location: .postgres(uri))
        print(container.location.postgresURI == uri)   // true
        #expect(container.location.postgresURI == uri)

        let token = try container.currentHistoryToken()
        // ... another process saves ...
        let changes = try container.history(after: token)
        let observing = container.observeOtherProcesses(every: .milliseconds(200))
        defer { observing.cancel() }
        #expect(changes.isEmpty)

        let other = try PersistentContainer(schema: schema, postgres: uri)
        try await other.performBackgroundTask { context in
            context.insert(Note.self)[Note.text] = "from another process"
            try await context.save()
        }
        #expect(try container.history(after: token).count == 1)
        try other.close()
        try container.close()
    }

    @Test func anErrorShowsNoPassword() throws {
        do {
            _ = try PersistentContainer(schema: schema, postgres: "postgresql://app:s3cret@127.0.0.1:1/none")
        } catch let error as StoreError {
            print(error)   // "cannot connect to the PostgreSQL server at postgresql://app:***@127.0.0.1:1/none: ..."
        }
        #expect { try PersistentContainer(schema: schema, postgres: "postgresql://app:s3cret@127.0.0.1:1/none") } throws: { error in
            let said = (error as? StoreError)?.description ?? ""
            return said.hasPrefix("cannot connect to the PostgreSQL server at postgresql://app:***@127.0.0.1:1/none: ") && !said.contains("s3cret")
        }
    }
}
