import Foundation
import Hummingbird
import PracticeLog
import StillpointCore

extension Problem {
    /// The answer to a post of sessions that saved nothing: 413 for a body or an array too large, 400 for one that is
    /// not a JSON array, 422 naming each wrong session by index and field, and the practitioner not there as a 404.
    ///
    /// ```swift
    /// throw Problem.posted(PostedSessionsError.tooMany(count: 20_000, limit: 10_000), id: "alice")   // 413
    /// ```
    static func posted(_ error: PostedSessionsError, id: String) -> Problem {
        switch error {
        case .tooLarge, .tooMany: Problem(.contentTooLarge, error.description)
        case .malformed: Problem(.badRequest, error.description)
        case .badSessions: Problem(.unprocessableContent, error.description)
        case .noPractitioner: noPractitioner(id)
        }
    }

    /// A 503 with `Retry-After` when a request found the store's server out of reach (or told to try again later), so
    /// that the client tries again later; `nil` for any other error. A write says it saved nothing.
    static func storeUnavailable(_ error: any Error, _ request: Request) -> Problem? {
        guard let kind = (error as? StoreError)?.driverError?.kind, kind == .unavailable || kind == .temporaryFailure else { return nil }
        let outcome = request.method == .get || request.method == .head ? "could not be answered" : "saved nothing"
        return Problem(.serviceUnavailable, "the store cannot be reached, so \(request.method) \(request.uri.path) \(outcome); try again shortly",
                       headers: [.retryAfter: "5"])
    }
}
