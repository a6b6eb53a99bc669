import Foundation
import PracticeLog
import StillpointCore

/// The owners of the practitioners' tokens already looked up, so that a request's bearer token costs no store
/// read: the hot path (`GET .../report` with the report held) then reads nothing from the store at all.
///
/// Only tokens that belong to someone are kept (a wrong token is looked up every time, so guessing fills no
/// memory), at most one per practitioner since each has one token. The cache is emptied when a token can have
/// changed owner or stopped working:
/// - at once by the route that replaces a token or removes a practitioner, on this instance (``forget(_:)``);
/// - when the store's change log says a practitioner was changed or removed, by any process or instance;
/// - when the store comes back after it could not be reached (the notifications sent meanwhile are lost).
///
/// A look-up under way when the cache is emptied does not keep what it read: the store may have answered with
/// the token before it was replaced. A dictionary finds a hash in time that depends on its bytes, which no one
/// can choose (they are a SHA-256), as the store's index of hashes does.
///
/// ```swift
/// let tokens = PractitionerTokenCache(container: container, isStoreStale: { live.isStale })
/// let owner = try await tokens.owner(of: TokenHash(of: presented))   // "alice", from memory after the first time
/// tokens.forget("alice")                                              // after replacing alice's token
/// ```
final class PractitionerTokenCache: Sendable {
    private struct State {
        var owners: [TokenHash: String] = [:]
        /// Grows each time the cache is emptied: a look-up that started before keeps nothing.
        var epoch: UInt64 = 0
        /// The store could not be reached at some request since the cache was last emptied.
        var sawStoreStale = false
    }

    private let container: PersistentContainer
    private let isStoreStale: @Sendable () -> Bool
    private let state: LockedState<State>
    private let follower: Task<Void, Never>

    /// Follows `container`'s change sets (other processes' too, while something such as ``LiveReports`` observes
    /// them) until it is closed; `isStoreStale` says whether the store cannot be reached or is being caught up with.
    init(container: PersistentContainer, isStoreStale: @escaping @Sendable () -> Bool) {
        self.container = container
        self.isStoreStale = isStoreStale
        let state = LockedState(State())
        self.state = state
        let changes = container.changeSets
        let practitioner = Practitioner.entity.name
        follower = Task { [state] in
            // Ends when the container closes its change sets.
            for await changeSet in changes
            where changeSet.updated.entityNames.contains(practitioner) || changeSet.deleted.entityNames.contains(practitioner) {
                Self.empty(state)
            }
        }
    }

    deinit {
        follower.cancel()
    }

    /// The id of the practitioner whose token has the hash `hash`, or `nil` when no one's has.
    ///
    /// - Throws: the store's error when the hash is not held and the store cannot be read.
    func owner(of hash: TokenHash) async throws -> String? {
        let stale = isStoreStale()
        let (held, epoch) = state.withLock { state -> (String?, UInt64) in
            if stale {
                state.sawStoreStale = true
            } else if state.sawStoreStale {
                Self.empty(&state)
            }
            return (state.owners[hash], state.epoch)
        }
        if let held { return held }
        guard let owner = try await PractitionerTokens.owner(of: hash, in: container) else { return nil }
        state.withLock { state in
            if state.epoch == epoch { state.owners[hash] = owner }
        }
        return owner
    }

    /// Drops the token of the practitioner `id` (replaced, or its practitioner removed): it stops working at once.
    func forget(_ id: String) {
        state.withLock { state in
            state.owners = state.owners.filter { $0.value != id }
            state.epoch += 1
        }
    }

    /// How many tokens are held.
    var count: Int {
        state.withLock { $0.owners.count }
    }

    private static func empty(_ state: LockedState<State>) {
        state.withLock { empty(&$0) }
    }

    private static func empty(_ state: inout State) {
        state.owners = [:]
        state.epoch += 1
        state.sawStoreStale = false
    }
}
