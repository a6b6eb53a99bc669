/// The sessions a catch-up of a ``SessionDigest`` changed, to tell which statistics must run again.
///
/// ```swift
/// let stale = entries.filter { entry in entry.prepared.filters.contains(where: update.touches) }
/// ```
public struct DigestUpdate: Sendable {
    /// The change sets read from the change log.
    public let changeSets: Int
    /// The sessions they changed.
    public let sessions: Int
    /// Each changed session before and after the change (a deleted one before, an inserted one after).
    let rows: [DigestColumns.Row]
    /// No session of the digest starts later than this (seconds since 1970): a report as of a later instant
    /// admits no session the earlier one did not.
    public let latestStart: Double
    let kindNames: ByteInterner
    /// The change log's read may have been held back by a transaction that ended meanwhile
    /// (``ChangeHistory/mayBeBehind``): catch up again soon, in a new read, rather than at the next change.
    public let mayBeBehind: Bool

    /// This update and a `later` one of the same digest as one: every session either changed.
    package func followed(by later: DigestUpdate) -> DigestUpdate {
        DigestUpdate(changeSets: changeSets + later.changeSets, sessions: sessions + later.sessions, rows: rows + later.rows,
                     latestStart: later.latestStart, kindNames: later.kindNames, mayBeBehind: later.mayBeBehind)
    }

    /// Whether any session of the digest changed: one it held before, or holds now. A practitioner's digest is not
    /// changed by other practitioners' sessions, which ``sessions`` counts too.
    public var changedAnySession: Bool { !rows.isEmpty }

    /// Whether a session `filter` admits changed: one it admitted before the change, or admits after it.
    public func touches(_ filter: SessionFilter) -> Bool {
        rows.contains { SelectionTally.admits($0, filter: filter, kindNames: kindNames) }
    }
}
