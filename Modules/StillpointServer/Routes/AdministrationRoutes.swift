import Foundation
import Hummingbird
import PracticeLog
import StillpointCore

/// The administrator's routes: add a practitioner (and hand out their token, the one time it is shown), replace
/// a token, remove a practitioner with their sessions and runs, list practitioners a page at a time.
enum AdministrationRoutes {
    /// The body of `POST /v1/practitioners`.
    struct NewPractitioner: Decodable {
        let id: String
        let name: String?
        let timeZone: String?

        enum CodingKeys: String, CodingKey {
            case id, name
            case timeZone = "time_zone"
        }
    }

    /// A practitioner's id and new token.
    struct IssuedToken: Encodable {
        let id: String
        let token: String
    }

    /// What `DELETE /v1/practitioners/{id}` removed.
    struct Removed: Encodable {
        let id: String
        let sessions: Int
        let importRuns: Int

        enum CodingKeys: String, CodingKey {
            case id, sessions
            case importRuns = "import_runs"
        }
    }

    /// One practitioner of the list.
    struct Listed: Encodable {
        let id: String
        let name: String
        @NullWhenAbsent var timeZone: String?
        let sessions: Int

        enum CodingKeys: String, CodingKey {
            case id, name, sessions
            case timeZone = "time_zone"
        }
    }

    /// A page of the list, and the `after` of the next page (`null` on the last).
    struct Page: Encodable {
        let practitioners: [Listed]
        @NullWhenAbsent var next: String?
    }

    /// The page size of `GET /v1/practitioners` without `limit`, and the largest `limit`.
    static let defaultPageSize = 100
    static let maximumPageSize = 1_000

    static func add(to router: Router<BasicRequestContext>, _ state: ServerState) {
        state.routes.add(.post, "/v1/practitioners", on: router) { request, _ in
            try await state.access.administrator(request)
            let new = try await JSONRequestBody.decode(NewPractitioner.self, from: request, limit: state.configuration.limits.maximumBodyBytes)
            if let problem = Practitioners.problem(withID: new.id) {
                throw Problem(.badRequest, "the practitioner id \(quoted(new.id)) \(problem); use 1 to \(Practitioners.maximumIDLength) characters without control characters")
            }
            if let name = new.name, let problem = Practitioners.problem(withName: name) {
                throw Problem(.badRequest, "the name of practitioner '\(new.id)' \(problem); give a shorter name on one line")
            }
            if let zone = new.timeZone, TimeZone(identifier: zone) == nil {
                throw Problem(.badRequest, "'time_zone' \(quoted(zone)) is not a time zone; use an IANA name such as Europe/Berlin")
            }
            guard let token = try await PractitionerTokens.add(new.id, name: new.name ?? "", timeZone: new.timeZone, in: state.container) else {
                throw Problem(.conflict, "there is a practitioner '\(new.id)' already; choose another id, or POST /v1/practitioners/{id}/token for a new token")
            }
            state.logger.notice("added a practitioner", metadata: ["practitioner": "\(new.id)"])
            return try JSONAnswer.response(IssuedToken(id: new.id, token: token), status: .created, headers: [.cacheControl: "no-store"])
        }
        state.routes.add(.post, "/v1/practitioners/:id/token", on: router) { request, context in
            try await state.access.administrator(request)
            let id = try PathParameter.practitionerID(request, context)
            guard let token = try await PractitionerTokens.replace(for: id, in: state.container) else { throw Problem.noPractitioner(id) }
            // The old token stops working at once here; other instances drop it when the change log comes round.
            state.access.tokens.forget(id)
            state.logger.notice("replaced a practitioner's token", metadata: ["practitioner": "\(id)"])
            return try JSONAnswer.response(IssuedToken(id: id, token: token), status: .created, headers: [.cacheControl: "no-store"])
        }
        state.routes.add(.delete, "/v1/practitioners/:id", on: router) { request, context in
            try await state.access.administrator(request)
            let id = try PathParameter.practitionerID(request, context)
            guard let removal = try await Practitioners.remove(id, from: state.container) else { throw Problem.noPractitioner(id) }
            // At once, not when the change log comes round: the next request of this id is a 404.
            state.live.forget(id)
            state.access.tokens.forget(id)
            state.logger.notice("removed a practitioner", metadata: ["practitioner": "\(id)", "sessions": "\(removal.sessions)"])
            return try JSONAnswer.response(Removed(id: id, sessions: removal.sessions, importRuns: removal.importRuns))
        }
        state.routes.add(.get, "/v1/practitioners", on: router) { request, _ in
            try await state.access.administrator(request)
            let query = request.uri.queryParameters
            var limit = defaultPageSize
            if let text = query["limit"] {
                guard let value = Int(text), (1...maximumPageSize).contains(value) else {
                    throw Problem(.badRequest, "the query parameter limit \(quoted(String(text))) is not a whole number from 1 to \(maximumPageSize)")
                }
                limit = value
            }
            let after = query["after"].map(String.init)
            // One more than the page, to know whether there is a next one; in the store's order of ids, so that a
            // page starts after the last id of the one before even when that one was removed meanwhile.
            let rest = try await Practitioners.list(after: after, limit: limit + 1, in: state.container)
            let page = rest.prefix(limit)
            let next = rest.count > limit ? page.last?.id : nil
            return try JSONAnswer.response(Page(practitioners: page.map { Listed(id: $0.id, name: $0.name, timeZone: $0.timeZone, sessions: $0.sessions) },
                                                next: next))
        }
    }

    /// Text from outside, quoted for a problem's detail (which JSON escapes).
    static func quoted(_ text: String) -> String {
        "'\(text.prefix(Practitioners.maximumIDLength))'"
    }
}
