/// What deleting an object does to the objects its relationship reaches.
///
/// ```swift
/// static let sessions = ToMany<Session>("sessions", inverse: "run", deleteRule: .cascade)
/// ```
///
/// Rules run when a context saves and when a batch delete runs, in the same transaction as the delete.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// The related objects stay and stop referring to the deleted one (the default).
    case nullify
    /// The related objects are deleted too, and what their own rules reach.
    case cascade
    /// The delete fails while any object is related.
    case deny
    /// Stillpoint changes nothing; the store's foreign key then refuses a delete that would leave a row referring
    /// to a row that is gone.
    case noAction
}
