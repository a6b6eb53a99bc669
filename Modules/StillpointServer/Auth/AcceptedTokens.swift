import Foundation
import StillpointCore

/// The owners of the practitioners' tokens this server has accepted, by hash: what lets a practitioner read their
/// report from memory while the store cannot be reached (docs/serving.md, "When PostgreSQL stops").
///
/// Only consulted when the store does not answer: otherwise every request looks its token up in the store, so a
/// token replaced or removed through any instance stops working at once. A look-up that finds no owner forgets the
/// hash here too.
///
/// ```swift
/// accepted.remember(hash, owner: "alice")
/// accepted.owner(of: hash)   // "alice", while the store is away
/// ```
final class AcceptedTokens: Sendable {
    private let owners = LockedState<[String: String]>([:])

    /// Records the look-up of `hash` in the store: its owner, or `nil` when it is no one's (any more).
    func remember(_ hash: TokenHash, owner: String?) {
        let key = hash.hex
        owners.withLock { owners in owners[key] = owner }
    }

    /// The owner the store last gave for `hash` (looked up by the hash, whose bytes no one can choose, as the store
    /// looks it up), or `nil`.
    func owner(of hash: TokenHash) -> String? {
        let key = hash.hex
        return owners.withLock { $0[key] }
    }
}
