import Foundation

/// Where a container keeps its data: a scheme and an address, open to every store module. The core knows two
/// schemes, a file and a private in-memory store; a store module adds its own as a static member (`StillpointPostgres`
/// adds `.postgres(uri)`) and registers how to open it.
///
/// ```swift
/// try PersistentContainer(schema: schema, location: .file(url))
/// try PersistentContainer(schema: schema, location: .inMemory)
/// try PersistentContainer(schema: schema, location: .postgres("postgresql://app@db.example/practice"))
/// ```
public struct StoreLocation: Sendable, Hashable {
    /// What kind of location: `file`, `memory`, or a store module's (`postgresql`).
    public let scheme: String
    /// The file's path, or the store module's name for the store (a URI); empty in memory.
    public let address: String

    /// A location of a store module's own scheme; the module registers how to open it
    /// (``register(scheme:opener:)``).
    ///
    /// ```swift
    /// let location = StoreLocation(scheme: "mydb", address: "mydb://host/practice")
    /// ```
    public init(scheme: String, address: String) {
        self.scheme = scheme
        self.address = address
    }

    /// A store file: readers run while one writer writes.
    public static func file(_ url: URL) -> StoreLocation {
        StoreLocation(scheme: fileScheme, address: url.path)
    }

    /// A private in-memory store, gone when the container is.
    public static let inMemory = StoreLocation(scheme: memoryScheme, address: "")

    /// The scheme of ``file(_:)``.
    public static let fileScheme = "file"
    /// The scheme of ``inMemory``.
    public static let memoryScheme = "memory"

    /// The file of a ``file(_:)`` location; `nil` for every other.
    ///
    /// ```swift
    /// if let url = container.location.fileURL { print(url.path) }
    /// ```
    public var fileURL: URL? {
        scheme == Self.fileScheme ? URL(fileURLWithPath: address) : nil
    }

    /// The path shown in errors and messages: every message, log line and report that names a store goes
    /// through it, so that none shows a password.
    ///
    /// ```swift
    /// StoreLocation(scheme: "mydb", address: "mydb://app:Hunter2?Secret@db.example/practice").displayPath
    /// // "mydb://app:***@db.example/practice"
    /// ```
    package var displayPath: String {
        switch scheme {
        case Self.fileScheme: return address
        case Self.memoryScheme: return ":memory:"
        default: return Self.redactingPasswords(in: address)
        }
    }

    /// The length of `text`'s scheme and `://` (`mydb://`), when it starts with one.
    package static func schemeLength(of text: String) -> Int? {
        text.prefixMatch(of: /[A-Za-z][A-Za-z0-9+.\-]*:\/\//).map { text.distance(from: text.startIndex, to: $0.range.upperBound) }
    }

    /// `text` (a message, a manifest's line) with every password it may hold replaced by `***`, line by line: in
    /// a URI of any scheme (`postgresql://`, in any case), everything from the first `:` after the scheme to the line's last `@`;
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
        if let scheme = line.firstRange(of: /[A-Za-z][A-Za-z0-9+.\-]*:\/\//) {
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
