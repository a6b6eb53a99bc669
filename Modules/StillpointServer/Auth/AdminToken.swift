import Crypto
import Foundation

/// The administrator's bearer token, read from a file (`--admin-token-file`) or `STILLPOINT_ADMIN_TOKEN`, never
/// from the command line, where other users of the machine could read it. Only its SHA-256 is kept.
///
/// ```swift
/// let token = try AdminToken(file: nil, environment: ProcessInfo.processInfo.environment)
/// ```
public struct AdminToken: Sendable {
    /// The shortest token accepted, in characters: a guessable token would open every practitioner.
    public static let minimumLength = 32
    /// The environment variable the token may come from.
    public static let environmentVariable = "STILLPOINT_ADMIN_TOKEN"

    let hash: TokenHash

    /// The token `text`, with surrounding white space (a file's final newline) removed.
    public init(_ text: String, from origin: String) throws(AdminTokenError) {
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard token.count >= Self.minimumLength else { throw .tooShort(origin: origin) }
        guard !token.contains(where: \.isWhitespace) else { throw .whiteSpace(origin: origin) }
        hash = TokenHash(of: token)
    }

    /// The token of `file` when one is named, else of ``environmentVariable``; `nil` when neither gives one.
    public init?(file: String?, environment: [String: String]) throws(AdminTokenError) {
        if let file {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw .unreadable(file: file)
            }
            try self.init(text, from: "the file \(file)")
        } else if let text = environment[Self.environmentVariable], !text.isEmpty {
            try self.init(text, from: Self.environmentVariable)
        } else {
            return nil
        }
    }

    /// Whether `presented` is this token, compared in constant time.
    func matches(_ presented: TokenHash) -> Bool {
        hash.matches(presented)
    }
}

/// Why the administrator's token was refused; the token itself is never part of the message.
public enum AdminTokenError: Error, CustomStringConvertible, Equatable {
    case tooShort(origin: String)
    case whiteSpace(origin: String)
    case unreadable(file: String)

    public var description: String {
        switch self {
        case .tooShort(let origin):
            "the administrator token in \(origin) is shorter than \(AdminToken.minimumLength) characters; "
                + "make one with `openssl rand -base64 32`"
        case .whiteSpace(let origin):
            "the administrator token in \(origin) holds white space; use one line of letters, digits and punctuation"
        case .unreadable(let file):
            "cannot read the administrator token file \(file); check that it exists and that this user may read it"
        }
    }
}
