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

    /// The path shown in errors and messages: every message, log line and report that names a store goes
    /// through it, so that none shows a password.
    ///
    /// ```swift
    /// StoreLocation.postgres("postgresql://app:Hunter2?Secret@db.example/practice").displayPath
    /// // "postgresql://app:***@db.example/practice"
    /// ```
    package var displayPath: String {
        switch self {
        case .file(let url): return url.path
        case .inMemory: return ":memory:"
        case .postgres(let uri): return Self.redactingPasswords(in: uri)
        }
    }

    /// Whether `name` (a `--store`, a manifest's `store:`) names a PostgreSQL database rather than a file: a URI
    /// whose scheme is `postgresql://` or `postgres://` in any case, or libpq's `keyword=value` pairs (a name that
    /// starts with a word and `=`, as psql reads it). A file of such a name is written `./host=x.sqlite`.
    ///
    /// ```swift
    /// StoreLocation.isPostgresName("PostgreSQL://db.example/practice")          // true
    /// StoreLocation.isPostgresName("host=db.example dbname=practice")           // true
    /// StoreLocation.isPostgresName("practice.sqlite")                           // false
    /// ```
    package static func isPostgresName(_ name: String) -> Bool {
        schemeLength(of: name) != nil || name.firstMatch(of: /^\s*[A-Za-z_]+\s*=/) != nil
    }

    /// `name` as libpq reads it: a URI's scheme in lower case. RFC 3986 makes schemes case-insensitive, but
    /// libpq recognises only `postgresql://` and `postgres://` as written (`uri_prefix_length` in fe-connect.c),
    /// and would read `PostgreSQL://...` as `keyword=value` pairs, quoting it whole in its error.
    package static func libpqForm(of name: String) -> String {
        guard let length = schemeLength(of: name) else { return name }
        return name.prefix(length).lowercased() + name.dropFirst(length)
    }

    /// The length of `text`'s `postgresql://` or `postgres://`, in any case.
    private static func schemeLength(of text: String) -> Int? {
        ["postgresql://", "postgres://"].first { text.prefix($0.count).lowercased() == $0 }?.count
    }

    /// `text` (a message, a manifest's line) with every password it may hold replaced by `***`, line by line: in
    /// a `postgresql://` URI (any case), everything from the first `:` after the scheme to the line's last `@`;
    /// and the value of every `password=` (any case), in a URI's query or in `keyword=value` pairs, quoted or not.
    ///
    /// The user part is taken as wide as it may be: libpq ends it at the first `@` or `/`, so a password that
    /// holds one is read in part as a host, port or database, and those parts must not show either.
    ///
    /// ```swift
    /// StoreLocation.redactingPasswords(in: "store: postgresql://u:a/b@db/practice?PASSWORD=c")
    /// // "store: postgresql://u:***@db/practice?PASSWORD=***"
    /// ```
    package static func redactingPasswords(in text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = String(line)
            if let scheme = line.firstRange(of: /(?i)postgres(?:ql)?:\/\//),
               let at = line[scheme.upperBound...].lastIndex(of: "@"),
               let colon = line[scheme.upperBound..<at].firstIndex(of: ":") {
                line.replaceSubrange(line.index(after: colon)..<at, with: "***")
            }
            return line.replacing(passwordParameter) { "\($0.output.1)\($0.output.2)=***" }
        }.joined(separator: "\n")
    }

    /// `text` (a message that may quote `uri` or parts of it, such as libpq's) with every password `uri` holds
    /// replaced by `***`: as written, without its quotes, and percent-decoded, as libpq may quote it.
    package static func redacting(_ text: String, passwordsOf uri: String) -> String {
        var redacted = text.replacingOccurrences(of: uri, with: redactingPasswords(in: uri))
        for secret in passwords(in: uri).sorted(by: { $0.count > $1.count }) {
            redacted = redacted.replacingOccurrences(of: secret, with: "***")
        }
        return redacted
    }

    /// Every password `uri` may hold: its user part's, read as widely as libpq may read it and as libpq reads it,
    /// and each `password=` value; as written, without quotes, and percent-decoded.
    ///
    /// ```swift
    /// StoreLocation.passwords(in: "postgresql://u:a%3Fb@db/practice")   // ["a%3Fb", "a?b"]
    /// ```
    package static func passwords(in uri: String) -> [String] {
        var secrets: [String] = []
        if let length = schemeLength(of: uri) {
            let rest = uri.dropFirst(length)
            // The widest reading of the user part (to the last "@"), and libpq's (to the first "@" or "/").
            for end in [rest.lastIndex(of: "@"), rest.firstIndex(where: { $0 == "@" || $0 == "/" })] {
                if let end, rest[end] == "@", let colon = rest[..<end].firstIndex(of: ":") {
                    secrets.append(String(rest[rest.index(after: colon)..<end]))
                }
            }
        }
        for match in uri.matches(of: passwordParameter) {
            let value = String(match.output.3)
            secrets.append(value)
            if value.hasPrefix("'"), value.count > 1 { secrets.append(String(value.dropFirst().dropLast())) }
        }
        secrets += secrets.compactMap { $0.removingPercentEncoding }
        var seen: Set<String> = []
        return secrets.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// `password=value` at the start, after `?`, `&` or a space: the value quoted (`'a b'`), or up to `&` or the
    /// next `keyword=` (an unquoted value with a space, `password=a b`, is a mistake libpq stops at, but the
    /// password meant is all of it).
    private static var passwordParameter: Regex<(Substring, Substring, Substring, Substring)> {
        /(?i)(^|[?&\s"'])(password)\s*=\s*('(?:[^'\\]|\\.)*'|[^&\s]*(?:\s+(?![A-Za-z_]+\s*=)[^&\s]+)*)/
    }
}
