import Foundation

/// Where a container keeps its data.
///
/// ```swift
/// try PersistentContainer(schema: schema, location: .file(url))
/// try PersistentContainer(schema: schema, location: .inMemory)
/// ```
public enum StoreLocation: Sendable, Hashable {
    /// A SQLite file in WAL mode: readers run while one writer writes.
    case file(URL)
    /// A private in-memory store, gone when the container is.
    case inMemory
    /// A PostgreSQL database, named by a libpq connection URI (`postgresql://user@host:5432/practice`) or
    /// `key=value` pairs; libpq's environment variables (`PGHOST`, `PGPASSWORD`, ...) fill in the rest.
    /// Opened through `StillpointPostgres`.
    case postgres(String)

    /// The path shown in errors and messages.
    package var displayPath: String {
        switch self {
        case .file(let url): return url.path
        case .inMemory: return ":memory:"
        case .postgres(let uri): return Self.redactingPassword(uri)
        }
    }

    /// `uri` with the password of its user part or of a `password=` parameter replaced by `***`, for messages.
    package static func redactingPassword(_ uri: String) -> String {
        var text = uri
        // postgresql://user:secret@host/...: the user part ends at the authority's "@".
        if let scheme = text.range(of: "://") {
            let authorityEnd = text[scheme.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? text.endIndex
            if let at = text[scheme.upperBound..<authorityEnd].lastIndex(of: "@"),
               let colon = text[scheme.upperBound..<at].firstIndex(of: ":") {
                text.replaceSubrange(text.index(after: colon)..<at, with: "***")
            }
        }
        // ?password=secret&... in a URI, password=secret or password='a b' in key=value pairs.
        return text.replacing(/(^|[?&\s])password\s*=\s*('(?:[^'\\]|\\.)*'|[^&\s]*)/) { match in
            "\(match.output.1)password=***"
        }
    }

    /// `text` (a message that may quote `uri` or parts of it) with every password `uri` holds replaced by `***`.
    package static func redacting(_ text: String, passwordsOf uri: String) -> String {
        var secrets: [String] = []
        if let scheme = uri.range(of: "://") {
            let authorityEnd = uri[scheme.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? uri.endIndex
            if let at = uri[scheme.upperBound..<authorityEnd].lastIndex(of: "@"),
               let colon = uri[scheme.upperBound..<at].firstIndex(of: ":") {
                secrets.append(String(uri[uri.index(after: colon)..<at]))
            }
        }
        for match in uri.matches(of: /(?:^|[?&\s])password\s*=\s*('(?:[^'\\]|\\.)*'|[^&\s]*)/) {
            let value = String(match.output.1)
            secrets.append(value)
            if value.hasPrefix("'"), value.count > 1 { secrets.append(String(value.dropFirst().dropLast())) }
        }
        var redacted = text.replacingOccurrences(of: uri, with: redactingPassword(uri))
        for secret in secrets.filter({ !$0.isEmpty }).sorted(by: { $0.count > $1.count }) {
            redacted = redacted.replacingOccurrences(of: secret, with: "***")
        }
        return redacted
    }
}
