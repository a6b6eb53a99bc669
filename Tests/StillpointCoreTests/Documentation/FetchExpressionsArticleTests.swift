import Foundation
import StillpointCore
import Testing

// The example of the Expressions in Dictionary Fetches article (StillpointCore.docc/FetchExpressions.md),
// compiled and run here on every store.

private typealias Session = ArticleSession.Session

@Suite("Expressions in Dictionary Fetches article")
struct FetchExpressionsArticleTests {
    @Test(arguments: TestStore.all) func meanDurationByKindOverTenMinutes(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Session.self])
        try await container.performBackgroundTask { context in
            for (kind, duration) in [("yoga", 1_200.0), ("yoga", 2_400.0), ("meditation", 300.0), ("meditation", 600.0)] {
                let session = context.insert(Session.self)
                session[Session.start] = Date(timeIntervalSince1970: 1_700_000_000 + duration)
                session[Session.kind] = kind
                session[Session.duration] = duration
            }
            try await context.save()
        }
        let rows = try await container.newBackgroundContext().perform { context in
            var request = FetchRequest(Session.self, predicate: try FetchPredicate("duration > 0"))
            request.properties = [.attribute("kind"),
                                  .expression(try FetchExpression("sum(duration) / count(*)"), as: "mean"),
                                  .expression(try FetchExpression("max(duration) / 60.0"), as: "longestMinutes")]
            request.groupBy = ["kind"]
            request.having = try FetchPredicate("mean > 600")   // Core Data's havingPredicate, over the alias
            request.sortKeys = [.descending("mean")]           // sorted by the expression, through its alias
            let rows = try context.fetchDictionaries(request)   // [["kind": "yoga", "mean": 1800, "longestMinutes": 60.0], ...]
            return rows
        }
        #expect(rows.count == 1)
        #expect(rows.first?["kind"] == .string("yoga"))
        #expect(rows.first?["mean"]?.numericValue == 1_800)
        #expect(rows.first?["longestMinutes"]?.numericValue == 40)
    }
}
