import Foundation
import StillpointCore
import Testing

// The example of the Query Generations article (StillpointCore.docc/QueryGenerations.md), compiled and run here on
// every store that can pin a generation.

private typealias Session = ArticleSession.Session

@Suite("Query Generations article")
struct QueryGenerationsArticleTests {
    @Test(arguments: TestStore.shareable) func aPinnedContextsReadsAgree(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Session.self])
        try await container.performBackgroundTask { context in
            for duration in [600.0, 1_200.0] {
                let session = context.insert(Session.self)
                session[Session.start] = Date(timeIntervalSince1970: 1_700_000_000 + duration)
                session[Session.duration] = duration
            }
            try await context.save()
        }
        let context = container.newBackgroundContext()
        let (count, fetched, total) = try await context.perform { context in
            try context.pinQueryGeneration()
            let count = try context.count(for: FetchRequest(Session.self))
            // ...other contexts and processes save sessions...
            let fetched = try context.fetch(FetchRequest(Session.self)).count   // == count
            var totals = FetchRequest(Session.self)
            totals.properties = [.aggregate(.sum, of: "duration", as: "total")]
            let total = try context.fetchDictionaries(totals).first?["total"]  // over the same sessions
            return (count, fetched, total)
        }
        #expect(count == 2 && fetched == 2)
        #expect(total?.numericValue == 1_800)
    }
}
