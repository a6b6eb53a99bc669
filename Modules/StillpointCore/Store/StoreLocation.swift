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
    /// and the value of every `password=` or `sslpassword=` (any case, percent-encoded or not), in a URI's query or in
    /// `keyword=value` pairs, quoted or not.
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
            let redacted = redactingPasswords(inLine: String(line))
            // A parameter percent-encoded (`pass%77ord=`, `password%3D...`) is one libpq decodes: when decoding
            // shows one, the line is shown decoded, without it.
            guard line.contains("%"), let decoded = line.removingPercentEncoding else { return redacted }
            let decodedRedacted = redactingPasswords(inLine: decoded)
            return decodedRedacted == decoded ? redacted : decodedRedacted
        }.joined(separator: "\n")
    }

    private static func redactingPasswords(inLine text: String) -> String {
        var line = text
        if let scheme = line.firstRange(of: /(?i)postgres(?:ql)?:\/\//) {
            if let at = line[scheme.upperBound...].lastIndex(of: "@") {
                if let colon = line[scheme.upperBound..<at].firstIndex(of: ":") {
                    line.replaceSubrange(line.index(after: colon)..<at, with: "***")
                }
            } else {
                let authority = line[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" }
                line.replaceSubrange(authority.startIndex..<authority.endIndex, with: redactingPorts(in: authority))
            }
        }
        return line.replacing(parameter) { match in
            isSecret(match.output.2) ? "\(match.output.1)\(match.output.2)=***" : String(match.output.0)
        }
    }

    /// `host:port,host:port` with every port that is not digits shown as `***`: with its `@host` forgotten,
    /// `postgresql://user:secret/db` puts a password where libpq reads a port.
    private static func redactingPorts(in authority: Substring) -> String {
        guard !authority.contains("[") else { return String(authority) }   // an IPv6 host holds colons of its own
        return authority.split(separator: ",", omittingEmptySubsequences: false).map { host in
            guard let colon = host.firstIndex(of: ":") else { return String(host) }
            let port = host[host.index(after: colon)...]
            return port.allSatisfy { $0.isASCII && $0.isNumber } ? String(host) : host[...colon] + "***"
        }.joined(separator: ",")
    }

    /// Whether a parameter's key names a secret: `password`, `sslpassword`, in any case, percent-encoded or not.
    private static func isSecret(_ key: Substring) -> Bool {
        (key.removingPercentEncoding ?? String(key)).lowercased().contains("pass")
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
        for text in [uri, uri.removingPercentEncoding ?? uri] {
            for match in text.matches(of: parameter) where isSecret(match.output.2) {
                let value = String(match.output.3)
                secrets.append(value)
                if value.hasPrefix("'"), value.count > 1 { secrets.append(String(value.dropFirst().dropLast())) }
            }
        }
        secrets += secrets.compactMap { $0.removingPercentEncoding }
        var seen: Set<String> = []
        return secrets.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// `key=value` at the start, after `?`, `&` or a space: the value quoted (`'a b'`), or up to `&` or the next
    /// `keyword=` (an unquoted value with a space, `password=a b`, is a mistake libpq stops at, but the password
    /// meant is all of it).
    private static var parameter: Regex<(Substring, Substring, Substring, Substring)> {
        /(^|[?&\s"'])([A-Za-z0-9_%]+)\s*=\s*('(?:[^'\\]|\\.)*'|[^&\s]*(?:\s+(?![A-Za-z_]+\s*=)[^&\s]+)*)/
    }
}
