import Foundation
import Hummingbird
import PracticeLog
import StillpointCore

/// `POST /v1/practitioners/{id}/sessions` and `GET /v1/practitioners/{id}/sessions`: a practitioner's sessions
/// posted as JSON (``PostedSessions``: checked, one transaction, idempotent by key) and read back a page at a time
/// (``SessionPage``: newest first, through the practitioner's scope) — docs/sessions-api.md.
///
/// ```sh
/// curl -H "Authorization: Bearer $TOKEN" -d '[{"start": "2024-03-05T07:30:00Z", "duration": 600, "kind": "yoga"}]' \
///      http://127.0.0.1:8080/v1/practitioners/alice/sessions
/// curl -H "Authorization: Bearer $TOKEN" "http://127.0.0.1:8080/v1/practitioners/alice/sessions?where=kind%20==%20'yoga'&limit=20"
/// ```
enum SessionRoutes {
    static func add(to router: Router<BasicRequestContext>, _ state: ServerState) {
        state.routes.add(.post, "/v1/practitioners/:id/sessions", on: router) { request, context in
            let id = try PathParameter.practitionerID(request, context)
            try await state.access.practitioner(id, request)
            let body = try await JSONRequestBody.bytes(of: request, limit: ImportLimits.maxPostedBytes)
            let outcome: PostedSessionsOutcome
            do {
                outcome = try await PostedSessions.save(body, for: id, in: state.container)
            } catch let error as PostedSessionsError {
                throw Problem.posted(error, id: id)
            } catch {
                throw Problem.storeUnavailable(error, request) ?? error
            }
            // 201 when the post made a session, 200 when it only changed or found ones there already.
            return try JSONAnswer.response(SavedBody(outcome), status: outcome.inserted > 0 ? .created : .ok)
        }
        state.routes.add(.get, "/v1/practitioners/:id/sessions", on: router) { request, context in
            let id = try PathParameter.practitionerID(request, context)
            try await state.access.practitioner(id, request)
            let query = request.uri.queryParameters
            var limit = SessionPage.defaultLimit
            if let text = query["limit"] {
                guard let number = Int(String(text)) else {
                    throw Problem(.badRequest, "the query parameter limit '\(text.prefix(40))' is not a whole number; use 1 to \(SessionPage.maximumLimit)")
                }
                limit = number
            }
            var before: SessionPageCursor?
            if let text = query["before"] {
                guard let cursor = SessionPageCursor(String(text)) else {
                    throw Problem(.badRequest, "the query parameter \(SessionPageError.badCursor(String(text)))")
                }
                before = cursor
            }
            let page: SessionPage
            do {
                page = try await SessionPage.fetch(for: id, where: query["where"].map(String.init), limit: limit, before: before, in: state.container)
            } catch let error as SessionPageError {
                if case .noPractitioner = error { throw Problem.noPractitioner(id) }
                throw Problem(.badRequest, "the query parameter \(error)")
            } catch {
                throw Problem.storeUnavailable(error, request) ?? error
            }
            return try JSONAnswer.response(PageBody(page))
        }
    }

    /// The answer to a post: what it did and each session's key, in the order posted.
    struct SavedBody: Encodable {
        let inserted: Int
        let updated: Int
        let unchanged: Int
        let keys: [String]

        init(_ outcome: PostedSessionsOutcome) {
            inserted = outcome.inserted
            updated = outcome.updated
            unchanged = outcome.unchanged
            keys = outcome.keys
        }
    }

    /// A page: its sessions, and the `before` of the next page (`null` on the last).
    struct PageBody: Encodable {
        let sessions: [SessionBody]
        @NullWhenAbsent var next: String?

        init(_ page: SessionPage) {
            sessions = page.rows.map(SessionBody.init)
            next = page.next?.description
        }
    }

    /// One session of a page, with the names a post uses.
    struct SessionBody: Encodable {
        let id: Int64
        let start: String
        let duration: Double
        let kind: String
        let source: String
        @NullWhenAbsent var timeZone: String?
        @NullWhenAbsent var note: String?
        let key: String

        init(_ row: SessionPage.Row) {
            id = row.id
            start = InstantText.string(row.start)
            duration = row.duration
            kind = row.kind
            source = row.source
            timeZone = row.timeZone
            note = row.note
            key = row.key
        }

        enum CodingKeys: String, CodingKey {
            case id, start, duration, kind, source, timeZone = "time_zone", note, key
        }
    }
}
