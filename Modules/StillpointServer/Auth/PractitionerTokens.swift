import Foundation
import PracticeLog
import StillpointCore

/// The practitioners' bearer tokens: 256 random bits, base64url, handed out once; the store keeps only their
/// SHA-256 (``Practitioner/tokenHash``).
///
/// ```swift
/// if let token = try await PractitionerTokens.replace(for: "alice", in: container) { print(token) }
/// let owner = try await PractitionerTokens.owner(of: TokenHash(of: presented), in: container)   // "alice"
/// ```
public enum PractitionerTokens {
    /// A new token: 32 bytes from the system's random source, base64url without padding (43 characters).
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Adds the practitioner `id` with a new token in one save, and returns the token; `nil`, changing nothing,
    /// when the store has a practitioner of that id already.
    public static func add(_ id: String, name: String, timeZone: String?, in container: PersistentContainer) async throws -> String? {
        let token = make()
        let hash = TokenHash(of: token).hex
        let added = try await container.performBackgroundTask { context in
            let existing = FetchRequest(Practitioner.self, predicate: Practitioner.id == id)
            guard try context.count(for: existing) == 0 else { return false }
            let practitioner = context.insert(Practitioner.self)
            practitioner[Practitioner.id] = id
            practitioner[Practitioner.name] = name
            practitioner[Practitioner.timeZone] = timeZone
            practitioner[Practitioner.tokenHash] = hash
            do {
                try await context.save()
            } catch {
                // Another instance added the same id between the count and the save: theirs is the one.
                context.rollback()
                if try context.count(for: existing) > 0 { return false }
                throw error
            }
            return true
        }
        return added ? token : nil
    }

    /// Gives the practitioner `id` a new token, which replaces the one before (that one stops working), and
    /// returns it; `nil` when the store has no such practitioner.
    public static func replace(for id: String, in container: PersistentContainer) async throws -> String? {
        let token = make()
        let hash = TokenHash(of: token).hex
        let replaced = try await container.performBackgroundTask { context in
            guard let practitioner = try context.fetch(FetchRequest(Practitioner.self, predicate: Practitioner.id == id, limit: 1)).first else {
                return false
            }
            practitioner[Practitioner.tokenHash] = hash
            try await context.save()
            return true
        }
        return replaced ? token : nil
    }

    /// The id of the practitioner whose token has the hash `hash`, or `nil` when no one's has.
    ///
    /// The look-up goes by the hash's index; the hash found is then compared again in constant time. An
    /// attacker cannot choose the bytes of a hash, so the time of the look-up tells nothing about a token.
    public static func owner(of hash: TokenHash, in container: PersistentContainer) async throws -> String? {
        let hex = hash.hex
        let found = try await container.newBackgroundContext(name: "token").perform { context in
            try context.fetch(FetchRequest(Practitioner.self, predicate: Practitioner.tokenHash == hex, limit: 1)).first
                .map { ($0[Practitioner.id], $0[Practitioner.tokenHash]) }
        }
        guard let found, let stored = found.1.flatMap(TokenHash.init(hex:)), stored.matches(hash) else { return nil }
        return found.0
    }
}
