import StillpointCore

/// A person whose practice a store holds: a stable id the app chooses, a display name and a home time zone. Every
/// ``Session`` and ``ImportRun`` belongs to one; removing a practitioner removes their sessions and runs.
///
/// ```swift
/// let alice = context.insert(Practitioner.self)
/// alice[Practitioner.id] = "alice"
/// alice[Practitioner.name] = "Alice"
/// alice[Practitioner.timeZone] = "Europe/Berlin"
/// try session.set(Session.practitioner, to: alice)
/// ```
public enum Practitioner: Entity {
    /// The id the app chooses (`me`, a user id): the key, unique in a store.
    public static let id = Attribute<String>("id")
    /// The name to show; empty when none was given (show the id instead).
    public static let name = Attribute<String>("name", default: "")
    /// The IANA zone an import of wall-clock times uses when none is given; `nil`: the zone of the machine.
    public static let timeZone = Attribute<String?>("timeZone")
    /// The SHA-256 of the practitioner's bearer token for `stillpoint-server`, as 64 lowercase hexadecimal digits;
    /// `nil`: no token, the server admits no one as them. The token itself is never stored (docs/serving.md).
    public static let tokenHash = Attribute<String?>("tokenHash")
    /// The practitioner's sessions: deleted with the practitioner.
    public static let sessions = ToMany<Session>("sessions", inverse: "practitioner", deleteRule: .cascade)
    /// The practitioner's import runs: deleted with the practitioner.
    public static let importRuns = ToMany<ImportRun>("importRuns", inverse: "practitioner", deleteRule: .cascade)

    /// The practitioner of a store with one person's practice, and of every session an older Stillpoint wrote.
    public static let defaultID = "me"

    public static let entity = EntityDescription(
        "Practitioner",
        attributes: [id, name, timeZone, tokenHash],
        relationships: [sessions, importRuns],
        // A token is found by its hash, and two practitioners never share one.
        indexes: [IndexDescription([id], isUnique: true), IndexDescription([tokenHash], isUnique: true)])
}
