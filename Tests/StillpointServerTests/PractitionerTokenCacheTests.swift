import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import StillpointCore
import Testing
@testable import StillpointServer

/// The practitioners' tokens held in memory (``PractitionerTokenCache``), on each store: a token is looked up in
/// the store once, and stops working at once when it is replaced or its practitioner removed on this instance,
/// and on another instance over the same store as soon as that one's change log brings the change.
@Suite("practitioner token cache")
struct PractitionerTokenCacheTests {
    static let admin = ServerTestStore.adminToken

    @Test(arguments: ServerTestStore.kinds)
    func aTokenIsLookedUpOnceAndAReplacedOneStopsWorkingAtOnce(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, state in
            let old = try await client.addPractitioner("alice")
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: old).status == .ok)
            #expect(state.access.tokens.count == 1, "alice's token is held after her first request")
            let replaced = try await client.send(.post, "/v1/practitioners/alice/token", token: Self.admin)
            let new = try JSONDecoder().decode(IssuedTokenBody.self, from: Data(buffer: replaced.body)).token
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: old).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: new).status == .ok)
            #expect(state.access.tokens.count == 1)
            #expect(try await client.send(.delete, "/v1/practitioners/alice", token: Self.admin).status == .ok)
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: new).status == .unauthorized)
            #expect(state.access.tokens.count == 0)
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func aTokenReplacedOnAnotherInstanceStopsWorkingAfterTheChangeLog(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { first, firstState in
            let old = try await first.addPractitioner("alice")
            let bob = try await first.addPractitioner("bob")
            let store = firstState.configuration.store
            try await ServerTestStore.withServer(kind, configure: { $0.store = store }) { second, secondState in
                #expect(try await second.send(.get, "/v1/practitioners/alice/report", token: old).status == .ok)
                #expect(try await second.send(.get, "/v1/practitioners/bob/report", token: bob).status == .ok)
                #expect(secondState.access.tokens.count == 2, "the second instance holds both tokens")

                let replaced = try await first.send(.post, "/v1/practitioners/alice/token", token: Self.admin)
                let new = try JSONDecoder().decode(IssuedTokenBody.self, from: Data(buffer: replaced.body)).token
                #expect(try await first.send(.get, "/v1/practitioners/alice/report", token: old).status == .unauthorized)
                // The second instance hears of it through the store's change log (NOTIFY, or SQLite's poll).
                let deadline = ContinuousClock.now + .seconds(60)
                var status = try await second.send(.get, "/v1/practitioners/alice/report", token: old).status
                while status == .ok, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                    status = try await second.send(.get, "/v1/practitioners/alice/report", token: old).status
                }
                #expect(status == .unauthorized, "the replaced token still works on the other instance")
                #expect(try await second.send(.get, "/v1/practitioners/alice/report", token: new).status == .ok)
                #expect(try await second.send(.get, "/v1/practitioners/bob/report", token: bob).status == .ok)
            }
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func tokensHeldServeWhileTheStoreIsAwayAndAreDroppedWhenItComesBack(_ kind: ServerTestStore.Kind) async throws {
        let location = try ServerTestStore.makeStore(kind)
        let logger = Logger(label: "token-cache-tests")
        let container = try await ServerStore.open(location, logger: logger)
        defer { try? container.close() }
        // Another process, whose changes this container does not follow: as the notifications lost while the
        // store could not be reached.
        let other = try await ServerStore.open(location, logger: logger)
        defer { try? other.close() }
        let stale = LockedState(false)
        let tokens = PractitionerTokenCache(container: container, isStoreStale: { stale.withLock { $0 } })
        let old = try #require(try await PractitionerTokens.add("alice", name: "", timeZone: nil, in: container))
        #expect(try await tokens.owner(of: TokenHash(of: old)) == "alice")
        #expect(try await tokens.owner(of: TokenHash(of: "no one's")) == nil)
        #expect(tokens.count == 1, "a wrong token is not held")

        stale.withLock { $0 = true }
        _ = try #require(try await PractitionerTokens.replace(for: "alice", in: other))
        #expect(try await tokens.owner(of: TokenHash(of: old)) == "alice", "a token held works while the store is away")
        stale.withLock { $0 = false }
        #expect(try await tokens.owner(of: TokenHash(of: old)) == nil, "the tokens held are dropped when the store is back")
    }
}
