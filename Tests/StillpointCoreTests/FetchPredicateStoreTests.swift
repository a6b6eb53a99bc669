import Foundation
import Testing
@testable import StillpointCore

/// `FetchPredicateSQLTests`' cases through a container on every store: each store's fetch selects exactly the
/// rows the in-memory evaluator selects.
@Suite("FetchPredicate on every store")
struct FetchPredicateStoreTests {
    /// The fixture numbers `predicate` selects in the store (pending changes aside: there are none).
    private func storedNumbers(_ predicate: FetchPredicate, on store: TestStore) async throws -> [Int64] {
        let container = try await PredicateFixtureStores.shared.container(store)
        return try await container.newBackgroundContext().perform { context in
            var request = FetchRequest(PredicateSession.self, predicate: predicate, sortedBy: [.ascending(PredicateSession.number)])
            request.includesPendingChanges = false
            return try context.fetch(request).map { Int64($0[PredicateSession.number]) }
        }
    }

    @Test("the store selects the rows the evaluator selects", arguments: TestStore.all, FetchPredicateSQLTests.cases)
    func storeAgreesWithEvaluator(store: TestStore, testCase: FetchPredicateSQLTests.Case) async throws {
        let predicate = try FetchPredicate(format: testCase.format, arguments: testCase.arguments)
        #expect(try await storedNumbers(predicate, on: store) == FetchPredicateSQLTests.memoryIDs(predicate))
    }

    /// Agreement alone would pass if both sides were wrong the same way: some cases' rows, pinned.
    @Test("the store selects the expected rows", arguments: TestStore.all, [
        (FetchPredicateSQLTests.Case("kind ==[c] 'yoga'"), [1, 2, 6] as [Int64]),
        (FetchPredicateSQLTests.Case("NOT (duration < 1000)"), [2, 3, 4]),
        (FetchPredicateSQLTests.Case("tag CONTAINS '_'"), [1, 5]),
        (FetchPredicateSQLTests.Case("title LIKE[cd] 'cafe*'"), [2, 6]),
        (FetchPredicateSQLTests.Case("uid == %@", FetchPredicateSQLTests.uuids[0].uuidString.lowercased()), [1]),
        (FetchPredicateSQLTests.Case("kind IN {'swim', nil}"), [4, 5]),
        (FetchPredicateSQLTests.Case("start BETWEEN %@", [FetchPredicateSQLTests.day0, FetchPredicateSQLTests.day0.addingTimeInterval(86400)]),
         [1, 2, 6, 7]),
        (FetchPredicateSQLTests.Case("done == NO"), [2, 5, 7]),
        (FetchPredicateSQLTests.Case("kind != title"), [1, 2, 3, 5, 6, 7]),
    ])
    func expectedRows(store: TestStore, pinned: (testCase: FetchPredicateSQLTests.Case, expected: [Int64])) async throws {
        let predicate = try FetchPredicate(format: pinned.testCase.format, arguments: pinned.testCase.arguments)
        #expect(try await storedNumbers(predicate, on: store) == pinned.expected)
    }
}
