import Foundation
import Hummingbird
import StillpointCore

/// Who may see what: bearer tokens checked against the administrator's token and the practitioners' stored
/// hashes (docs/serving.md, "Who may see what").
///
/// A practitioner's token reaches that practitioner's routes only: another practitioner's id answers exactly as
/// an id that does not exist (``Problem/noPractitioner(_:)``), so a token tells nothing about who else is there.
///
/// ```swift
/// let caller = try await state.access.practitioner(id, request)   // 401, or a 404 for someone else's id
/// try await state.access.administrator(request)                    // 401, or 403 for a practitioner's token
/// ```
public struct AccessControl: Sendable {
    let adminToken: AdminToken?
    /// The practitioners' tokens already looked up in the store.
    let tokens: PractitionerTokenCache

    /// The `WWW-Authenticate` challenge of a 401.
    static let challenge = #"Bearer realm="stillpoint""#

    /// The caller of `request`, or a 401 when it carries no bearer token or one that is no one's.
    public func caller(of request: Request) async throws -> Caller {
        guard let token = Self.bearerToken(of: request) else {
            throw Problem(.unauthorized, "\(request.method) \(request.uri.path) needs a bearer token: send `Authorization: Bearer TOKEN` "
                          + "with the token the administrator was given for you", headers: [.wwwAuthenticate: Self.challenge])
        }
        let hash = TokenHash(of: token)
        if let adminToken, adminToken.matches(hash) { return .administrator }
        if let owner = try await tokens.owner(of: hash) { return .practitioner(owner) }
        throw Problem(.unauthorized, "the bearer token of \(request.method) \(request.uri.path) is not valid (it may have been replaced); "
                      + "ask the administrator for a new one", headers: [.wwwAuthenticate: Self.challenge + #", error="invalid_token""#])
    }

    /// The caller of a route of the practitioner `id`: the administrator, or that practitioner.
    @discardableResult
    public func practitioner(_ id: String, _ request: Request) async throws -> Caller {
        let caller = try await caller(of: request)
        if case .practitioner(let owner) = caller, owner != id { throw Problem.noPractitioner(id) }
        return caller
    }

    /// The caller of a `GET` route the practitioner's page needs (the page, the report, its event stream): as
    /// ``practitioner(_:_:)``, or else the practitioner by the token of their ``PageCookie``. A cookie never stands
    /// for the administrator, and on any other method it counts for nothing, so no other site can write with it.
    @discardableResult
    public func reader(_ id: String, _ request: Request) async throws -> Caller {
        if Self.bearerToken(of: request) != nil { return try await practitioner(id, request) }
        guard request.method == .get || request.method == .head, let token = PageCookie.token(of: request) else {
            throw Problem(.unauthorized, "\(request.method) \(request.uri.path) needs a bearer token, or from a browser the cookie \(PageCookie.name): "
                          + "send `Authorization: Bearer TOKEN`, or first post {\"token\": TOKEN} as JSON to \(PageCookie.path(of: id))/cookie",
                          headers: [.wwwAuthenticate: Self.challenge])
        }
        guard let owner = try await tokens.owner(of: TokenHash(of: token)) else {
            throw Problem(.unauthorized, "the cookie \(PageCookie.name) of \(request.method) \(request.uri.path) holds a token that is not valid "
                          + "(it may have been replaced); ask the administrator for a new one and post it to \(PageCookie.path(of: id))/cookie",
                          headers: [.wwwAuthenticate: Self.challenge + #", error="invalid_token""#])
        }
        guard owner == id else { throw Problem.noPractitioner(id) }
        return .practitioner(owner)
    }

    /// The practitioner whose token `token` is, for ``PageCookie``: a 401 for a token that is no one's, a 403 for
    /// the administrator's (it is never put in a browser), and the 404 of ``Problem/noPractitioner(_:)`` for
    /// another practitioner's.
    func pageCookieOwner(_ token: String, for id: String, _ request: Request) async throws -> String {
        let hash = TokenHash(of: token)
        if let adminToken, adminToken.matches(hash) {
            throw Problem(.forbidden, "\(request.method) \(request.uri.path) puts a practitioner's own token in a cookie, never the administrator's; "
                          + "send the administrator's token as `Authorization: Bearer TOKEN` instead")
        }
        guard let owner = try await tokens.owner(of: hash) else {
            throw Problem(.unauthorized, "the token in the body of \(request.method) \(request.uri.path) is not valid (it may have been replaced); "
                          + "ask the administrator for a new one", headers: [.wwwAuthenticate: Self.challenge + #", error="invalid_token""#])
        }
        guard owner == id else { throw Problem.noPractitioner(id) }
        return owner
    }

    /// Passes the administrator only: 401 without a valid token, 403 for a practitioner's.
    public func administrator(_ request: Request) async throws {
        guard adminToken != nil else {
            throw Problem(.forbidden, "this server has no administrator token, so \(request.method) \(request.uri.path) is closed; "
                          + "start it with STILLPOINT_ADMIN_TOKEN or --admin-token-file")
        }
        guard try await caller(of: request) == .administrator else {
            throw Problem(.forbidden, "\(request.method) \(request.uri.path) is the administrator's; a practitioner's token does not reach it")
        }
    }

    /// The token of an `Authorization: Bearer TOKEN` header (the scheme in any case), or `nil`.
    static func bearerToken(of request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
