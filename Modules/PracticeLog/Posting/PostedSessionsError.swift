/// Why a post of sessions (``PostedSessions``) saved nothing.
///
/// ```swift
/// do {
///     try await PostedSessions.save(body, for: "alice", in: container)
/// } catch let error as PostedSessionsError {
///     print(error)   // "[2].start '2024-02-30T07:00' is not an ISO 8601 instant ... (1 of 3 sessions is wrong; nothing was saved)"
/// }
/// ```
public enum PostedSessionsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body is more than `limit` bytes (``ImportLimits/maxPostedBytes``).
    case tooLarge(bytes: Int, limit: Int)
    /// The array holds `count` sessions, more than `limit` (``ImportLimits/maxPostedSessions``).
    case tooMany(count: Int, limit: Int)
    /// The body is not JSON, or not an array: why.
    case malformed(String)
    /// `count` sessions are wrong; the first of them (at most ``listedIssues``).
    case badSessions(count: Int, of: Int, first: [PostedSessionIssue])
    /// The store has no practitioner with this id.
    case noPractitioner(String)

    /// How many wrong sessions ``badSessions(count:of:first:)`` lists.
    public static let listedIssues = 20

    public var description: String {
        switch self {
        case .tooLarge(let bytes, let limit):
            return "the body is \(bytes) bytes, more than the \(limit) a post of sessions may have; post the sessions in parts"
        case .tooMany(let count, let limit):
            return "the array holds \(count) sessions, more than the \(limit) one post may hold; post them in parts"
        case .malformed(let reason):
            return reason
        case .badSessions(let count, let total, let first):
            let shown = first.map(\.description).joined(separator: "; ")
            let more = count > first.count ? "; and \(count - first.count) more" : ""
            return "\(shown)\(more) (\(count) of \(total) \(total == 1 ? "session is" : "sessions are") wrong; nothing was saved)"
        case .noPractitioner(let id):
            return "there is no practitioner \(PostedSessionIssue.quoted(id)) in this store; add them first"
        }
    }
}
