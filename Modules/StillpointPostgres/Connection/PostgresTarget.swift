import CLibPQ
import Foundation
import StillpointCore

/// Where a connection URI points, for messages: host, port, database and user, never the password.
///
/// ```swift
/// PostgresTarget(uri: "postgresql://app:secret@db.example:5433/practice").description
/// // "db.example:5433 (database practice, user app)"
/// ```
package struct PostgresTarget: Sendable, Equatable, CustomStringConvertible {
    package var host: String?
    package var port: String?
    package var database: String?
    package var user: String?

    /// Why libpq cannot read `uri` as a URI or `key=value` pairs, or `nil` when it can.
    package static func parseFailure(of uri: String) -> String? {
        var failure: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(uri, &failure) else {
            defer { PQfreemem(failure) }
            return failure.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "it cannot be parsed"
        }
        PQconninfoFree(options)
        return nil
    }

    /// Why `uri` (a URI in any case, or `key=value` pairs) cannot be used as libpq would read it, or `nil` when it
    /// can: libpq cannot parse it, would read part of a password as the host, port or database (a `/` or `@` in it
    /// left unencoded), or finds a port that is not a number. The reason never quotes a password: libpq's own,
    /// which quotes the text it stopped at, is given only for a name that holds none.
    ///
    /// ```swift
    /// PostgresTarget.misreading(of: "postgresql://app:a/b@db.example/practice")
    /// // "its user part holds a '/' or '@' that libpq reads as the end of the password; ..."
    /// ```
    package static func misreading(of uri: String) -> String? {
        let name = StoreLocation.libpqForm(of: uri)
        let holdsPassword = StoreLocation.redactingPasswords(in: name) != name
        let encoding = "percent-encode a '/', '?', '@', ':' or '%' in the user and password (%2F, %3F, %40, %3A, %25)"
        if let failure = parseFailure(of: name) {
            // libpq quotes the text it stopped at, which may be a piece of a password it read in part.
            let pieces = StoreLocation.passwords(in: name).flatMap { $0.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) }
            guard pieces.contains(where: { $0.count > 1 && failure.contains($0) }) else {
                return StoreLocation.redacting(failure, passwordsOf: name)
            }
            return "libpq cannot read it (its reason would quote the password): in a URI, \(encoding); "
                + "in key=value pairs, quote a value that holds spaces (password='a b')"
        }
        if misreadsUserPart(name) {
            return "its user part holds a '/' or '@' that libpq reads as the end of the password, and the rest as the host, port or database; \(encoding)"
        }
        let target = PostgresTarget(uri: name)
        let ports = target.port.map { $0.split(separator: ",", omittingEmptySubsequences: false) } ?? []
        if ports.contains(where: { Self.portNumber($0) == nil }) {
            // Never quoted: the text after the host's ':' may be a password whose `@host` was forgotten.
            return "its port is not a number from 1 to 65535; write the port in digits (a password written after a "
                + "host's ':' needs its '@host' after it)" + (holdsPassword ? "; \(encoding)" : "")
        }
        return nil
    }

    /// A port as libpq reads it (digits, spaces around them allowed; empty for the default), if it is one.
    private static func portNumber(_ text: Substring) -> Int? {
        let digits = text.trimmingCharacters(in: .whitespaces)
        if digits.isEmpty { return 5432 }
        guard digits.allSatisfy(\.isASCII), let port = Int(digits), (1...65_535).contains(port) else { return nil }
        return port
    }

    /// Whether libpq would read a URI's user part short: it ends it at the first `@` or `/`, so a password that
    /// holds `@` leaves an `@` in the host, and one that holds `/` leaves the `@` in the database's name.
    private static func misreadsUserPart(_ name: String) -> Bool {
        guard name.hasPrefix("postgresql://") || name.hasPrefix("postgres://"), let scheme = name.range(of: "://") else { return false }
        let rest = name[scheme.upperBound...]
        guard let end = rest.firstIndex(where: { $0 == "@" || $0 == "/" }) else { return false }
        let after = rest[rest.index(after: end)...]
        let next = rest[end] == "@" ? after.prefix { $0 != "/" && $0 != "?" } : after.prefix { $0 != "?" }
        return next.contains("@")
    }

    /// Whether libpq's message on connecting says that a parameter's value is wrong (`invalid sslmode value`, a port
    /// that is not a number), which it finds before reaching any server: a mistake in the URI, not an unreachable server.
    package static func isRefusedParameter(_ message: String) -> Bool {
        message.contains(/invalid [a-z_]+ value: |invalid integer value |invalid port number|could not match \d+ (?:host names|port numbers)|value "[^"]*" invalid when/)
    }

    /// The parts libpq reads from `uri` (a URI or `key=value` pairs); empty where it cannot parse it.
    package init(uri: String) {
        var failure: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(uri, &failure) else {
            PQfreemem(failure)
            return
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            let value = option.pointee.val.map { String(cString: $0) }
            switch String(cString: keyword) {
            case "host": host = value
            case "port": port = value
            case "dbname": database = value
            case "user": user = value
            default: break
            }
            option += 1
        }
    }

    package var description: String {
        // libpq's defaults: the environment's PGHOST, else the local socket; PGPORT, else 5432.
        let place = (host ?? "the local socket") + (port.map { ":\($0)" } ?? "")
        let details = [database.map { "database \($0)" }, user.map { "user \($0)" }].compactMap { $0 }
        return place + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")")
    }
}
