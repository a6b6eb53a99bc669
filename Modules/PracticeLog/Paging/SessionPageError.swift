/// Why a page of sessions (``SessionPage``) was not read.
///
/// ```swift
/// SessionPageError.limitOutOfRange(0).description   // "limit 0 is out of range; use 1 to 500"
/// ```
public enum SessionPageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `limit` is not from 1 to ``SessionPage/maximumLimit``.
    case limitOutOfRange(Int)
    /// The `before` text is not a cursor a page gave.
    case badCursor(String)
    /// The `where` text is not a predicate of sessions.
    case badPredicate(PredicateTextError)
    /// The store has no practitioner with this id.
    case noPractitioner(String)

    public var description: String {
        switch self {
        case .limitOutOfRange(let limit):
            return "limit \(limit) is out of range; use 1 to \(SessionPage.maximumLimit)"
        case .badCursor(let text):
            return "before \(PostedSessionIssue.quoted(text)) is not a cursor; pass the `next` of the page before, or leave it out for the newest sessions"
        case .badPredicate(let error):
            return "where \(error)"
        case .noPractitioner(let id):
            return "there is no practitioner \(PostedSessionIssue.quoted(id)) in this store"
        }
    }
}
