import Foundation
import HTTPTypes
import Hummingbird

/// The cookie that lets a browser open a practitioner's page: a browser's navigation and its `EventSource` cannot
/// send `Authorization: Bearer`, so `POST /v1/practitioners/{id}/cookie` takes the practitioner's token in its JSON
/// body and answers with this cookie holding it (docs/serving.md, "The page in a browser").
///
/// It is `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page sends it) and scoped to the
/// practitioner's own paths; ``AccessControl/reader(_:_:)`` accepts it on the `GET` routes the page needs only.
///
/// ```swift
/// headers[.setCookie] = PageCookie.setCookie(token: token, practitioner: "alice", secure: false)
/// // stillpoint_token=…; Path=/v1/practitioners/alice; HttpOnly; SameSite=Strict
/// ```
enum PageCookie {
    static let name = "stillpoint_token"

    /// The `Set-Cookie` value that hands `token` to the browser for the paths of `practitioner`; `Secure` when the
    /// request came over HTTPS (the reverse proxy's `X-Forwarded-Proto: https`).
    static func setCookie(token: String, practitioner id: String, secure: Bool) -> String {
        "\(name)=\(token); Path=\(path(of: id)); HttpOnly; SameSite=Strict" + (secure ? "; Secure" : "")
    }

    /// The path of the practitioner's routes, as the page links to them: the id percent-encoded so that it is one
    /// path segment and no `;` or `,` ends the cookie's attribute.
    static func path(of id: String) -> String {
        "/v1/practitioners/" + (id.addingPercentEncoding(withAllowedCharacters: segmentCharacters) ?? id)
    }

    /// The token of the request's cookie, or `nil` without one.
    static func token(of request: Request) -> String? {
        guard let value = request.cookies[name]?.value, !value.isEmpty else { return nil }
        return value
    }

    /// Whether the request came through a proxy that terminated TLS, so that the cookie is marked `Secure`.
    static func isSecure(_ request: Request) -> Bool {
        request.headers[forwardedProto]?.lowercased() == "https"
    }

    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!  // swiftlint:disable:this force_unwrapping: a constant, valid header name

    private static let segmentCharacters: CharacterSet = {
        var characters = CharacterSet.urlPathAllowed
        characters.remove(charactersIn: "/;,%")
        return characters
    }()
}
