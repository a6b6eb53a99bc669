import Foundation
@testable import StillpointCore

/// One container per store holding `FetchPredicateSQLTests`' fixture, saved through a context and shared by
/// every case (they only read).
actor PredicateFixtureStores {
    static let shared = PredicateFixtureStores()

    private var containers: [TestStore: Task<PersistentContainer, any Error>] = [:]

    func container(_ store: TestStore) async throws -> PersistentContainer {
        if let made = containers[store] { return try await made.value }
        let making = Task { try await Self.make(store) }
        containers[store] = making
        return try await making.value
    }

    private static func make(_ store: TestStore) async throws -> PersistentContainer {
        let container = try await makeContainer(store, entities: [PredicateSession.self])
        try await container.performBackgroundTask { context in
            for (number, values) in FetchPredicateSQLTests.rows.sorted(by: { $0.key < $1.key }) {
                let session = context.insert(PredicateSession.self)
                session[PredicateSession.number] = Int(number)
                for (key, value) in values { try session.setValue(value, forKey: key) }
            }
            try await context.save()
        }
        return container
    }
}
