import Foundation
import Testing
@testable import StillpointCore

/// A predicate the format accepts (up to 100 levels) but SQLite's parser cannot take (about 45 levels of nested
/// SQL): refused as a predicate's problem, with what to do, never as a fault of the store. PostgreSQL runs it.
@Suite("predicates nested deeper than SQLite's parser")
struct DeepPredicateTests {
    /// Sixty minus signs before `uid`: an even count, so the same as `uid > 0`.
    static let format = String(repeating: "-", count: 60) + "uid > 0"

    @Test(arguments: TestStore.all) func aPredicateNestedPastSQLitesParserIsRefusedAsAPredicateError(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        let request = FetchRequest(Item.self, predicate: try FetchPredicate(Self.format))
        let fetch = { try await container.performBackgroundTask { context in try context.fetch(request).count } }
        switch store {
        case .postgres:
            #expect(try await fetch() == 3)
        case .sqliteMemory, .sqliteFile:
            let error = await #expect(throws: FetchPredicateError.self) { try await fetch() }
            #expect(error?.message.contains("nests deeper than SQLite can compile") == true, "\(String(describing: error))")
        }
    }
}
