import Foundation
import HTTPTypes
import Hummingbird
import StillpointReport

/// `GET /v1/practitioners/{id}`: the practitioner's HTML report as a page that keeps itself current from the
/// report's event stream (``LiveReportPage``), with no reload and no script from elsewhere (a path that spells the id
/// otherwise than ``PageCookie/path(of:)`` is redirected there, where the cookie is sent); and
/// `POST /v1/practitioners/{id}/cookie`, which trades the practitioner's token for the ``PageCookie`` a browser
/// opens the page with (docs/serving.md, "The page in a browser").
enum PageRoutes {
    static func add(to router: Router<BasicRequestContext>, _ state: ServerState) {
        state.routes.add(.get, "/v1/practitioners/:id", on: router) { request, context in
            let id = try PathParameter.practitionerID(request, context)
            // The cookie's path is the id spelled one way; a browser sends it only to a path spelled the same.
            let base = PageCookie.path(of: id)
            guard request.uri.path == base else {
                let query = request.uri.query.map { "?" + $0 } ?? ""
                return Response(status: .permanentRedirect, headers: [.location: base + query, .cacheControl: "no-store"])
            }
            try await state.access.reader(id, request)
            guard let live = try await state.live.report(for: id, format: .html) else { throw Problem.noPractitioner(id) }
            let nonce = LiveReportPage.makeNonce()
            let page = LiveReportPage(eventsURL: base + "/report/events", reportURL: base + "/report?format=html")
                .render(html: live.body, generation: live.generation, nonce: nonce)
            var headers: HTTPFields = [
                .contentType: "text/html; charset=utf-8",
                .contentSecurityPolicy: LiveReportPage.contentSecurityPolicy(nonce: nonce),
                // A nonce is good for one page: never keep the page.
                .cacheControl: "no-store",
                .xContentTypeOptions: "nosniff",
            ]
            if live.isStale { headers[ReportRoutes.staleHeader] = "true" }
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
        }

        state.routes.add(.post, "/v1/practitioners/:id/cookie", on: router) { request, context in
            let id = try PathParameter.practitionerID(request, context)
            // JSON only: a form of another site cannot send it without a CORS preflight, which this server never allows.
            guard let type = request.headers[.contentType], type.split(separator: ";").first?
                .trimmingCharacters(in: .whitespaces).lowercased() == "application/json" else {
                throw Problem(.unsupportedMediaType, "\(request.method) \(request.uri.path) takes a JSON body {\"token\": ...}; "
                              + "send it with `Content-Type: application/json`")
            }
            let body = try await JSONRequestBody.decode(CookieRequest.self, from: request, limit: state.configuration.limits.maximumBodyBytes)
            let owner = try await state.access.pageCookieOwner(body.token, for: id, request)
            let cookie = PageCookie.setCookie(token: body.token, practitioner: owner, secure: PageCookie.isSecure(request))
            return Response(status: .noContent, headers: [.setCookie: cookie, .cacheControl: "no-store"])
        }
    }

    /// The body of `POST /v1/practitioners/{id}/cookie`.
    struct CookieRequest: Decodable {
        let token: String
    }
}
