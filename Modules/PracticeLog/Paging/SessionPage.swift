import Foundation
import StillpointCore

/// A page of one practitioner's sessions, newest first, read through their scope (``Practitioners/scope(of:)``) so
/// that no predicate reaches another practitioner's rows; what `GET /v1/practitioners/{id}/sessions` answers.
///
/// ```swift
/// var page = try await SessionPage.fetch(for: "alice", where: "kind == 'yoga'", limit: 20, in: container)
/// while let next = page.next {
///     page = try await SessionPage.fetch(for: "alice", where: "kind == 'yoga'", limit: 20, before: next, in: container)
/// }
/// ```
public struct SessionPage: Sendable, Equatable {
    /// One session as a page shows it.
    public struct Row: Sendable, Equatable {
        /// The session's row id.
        public var id: Int64
        public var start: Date
        public var duration: Double
        public var kind: String
        public var source: String
        public var timeZone: String?
        public var note: String?
        public var key: String
    }

    /// The sessions, newest first; among sessions of one start, lowest row id first.
    public var rows: [Row]
    /// Where the next page (older sessions) starts, or `nil` when there are none.
    public var next: SessionPageCursor?

    /// The sessions a page holds when no limit is given.
    public static let defaultLimit = 50
    /// The most sessions one page holds.
    public static let maximumLimit = 500

    /// The practitioner `practitioner`'s sessions that match `text` (a predicate as `sessions --where` takes it),
    /// at most `limit` of them, newest first, after the cursor `before` (older than the last session of the page
    /// before).
    ///
    /// - Throws: ``SessionPageError`` for a limit out of range, a predicate that cannot run on this store, or a
    ///   practitioner the store does not have; the store's errors.
    public static func fetch(for practitioner: String, where text: String? = nil, limit: Int = defaultLimit,
                             before: SessionPageCursor? = nil, in container: PersistentContainer) async throws -> SessionPage {
        guard (1...maximumLimit).contains(limit) else { throw SessionPageError.limitOutOfRange(limit) }
        var conditions: [FetchPredicate] = []
        if let text {
            do {
                conditions.append(try PredicateText.parse(text, for: Session.entity, storedIn: container))
            } catch let error as PredicateTextError {
                throw SessionPageError.badPredicate(error)
            }
        }
        if let before {
            // The store orders sessions of one start by row id, ascending: the page goes on after the last one shown.
            let start = AttributeValue.date(before.start)
            conditions.append(try FetchPredicate("start < %@ OR (start == %@ AND _id > %@)", start, start, before.id))
        }
        guard let owner = try await Practitioners.find(practitioner, in: container) else { throw SessionPageError.noPractitioner(practitioner) }
        let context = try await Practitioners.context(of: owner.rowID, in: container, name: "session page")
        var request = FetchRequest(Session.self, predicate: conditions.isEmpty ? nil : .and(conditions),
                                   sortedBy: [.descending(Session.start)], limit: limit + 1)
        request.includesPendingChanges = false
        let rows = try await context.perform { [request] context in
            try context.fetch(request).compactMap { session -> Row? in
                guard let id = session.objectID.rowID else { return nil }
                return Row(id: id, start: session[Session.start], duration: session[Session.duration], kind: session[Session.kind],
                           source: session[Session.source], timeZone: session[Session.timeZone], note: session[Session.note], key: session[Session.key])
            }
        }
        // One row more than the page holds says whether another page follows, without a count.
        let shown = Array(rows.prefix(limit))
        let next = rows.count > limit ? shown.last.map { SessionPageCursor(start: $0.start, id: $0.id) } : nil
        return SessionPage(rows: shown, next: next)
    }
}
