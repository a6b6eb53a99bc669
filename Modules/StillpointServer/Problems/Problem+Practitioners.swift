import Foundation
import Hummingbird

extension Problem {
    /// The answer for a practitioner who is not there, and for one the caller may not see: the same bytes either
    /// way, so that a token tells nothing about who else the store holds.
    ///
    /// ```swift
    /// throw Problem.noPractitioner("alice")
    /// ```
    public static func noPractitioner(_ id: String) -> Problem {
        Problem(.notFound, "there is no practitioner '\(id)' on this server; check the id in the path")
    }
}
