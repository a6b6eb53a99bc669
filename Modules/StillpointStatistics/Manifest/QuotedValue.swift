import StillpointCore

/// A value from a manifest, quoted for a one-line message: cut to its first 40 characters and to one line, so
/// that a file that is not a manifest at all (a whole `/etc/passwd` read as one scalar) is not echoed back.
///
/// ```swift
/// "not \(QuotedValue("4 hours"))"           // "not '4 hours'"
/// "not \(QuotedValue(wholeFile))"           // "not 'root:x:0:0:root:/root:/bin/bash daemon:x…'"
/// ```
struct QuotedValue: CustomStringConvertible {
    static let maximumLength = 40

    let text: String

    init(_ text: String) {
        self.text = text
    }

    var description: String {
        // Passwords go before the cut, which could leave a URI's password without the "@" that ends it.
        let line = StoreLocation.redactingPasswords(in: text).split(whereSeparator: \.isNewline).joined(separator: " ")
        let shown = line.count > Self.maximumLength ? line.prefix(Self.maximumLength) + "…" : Substring(line)
        return "'\(shown)'"
    }
}
