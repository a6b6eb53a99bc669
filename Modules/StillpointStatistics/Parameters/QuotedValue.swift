import StillpointCore

/// A value from a manifest, quoted for a one-line message: cut to its first 40 characters and to one line, so
/// that a file that is not a manifest at all (a whole `/etc/passwd` read as one scalar) is not echoed back.
/// `package`: the manifest module quotes its values the same way.
///
/// ```swift
/// "not \(QuotedValue("4 hours"))"           // "not '4 hours'"
/// "not \(QuotedValue(wholeFile))"           // "not 'root:x:0:0:root:/root:/bin/bash daemon:x…'"
/// ```
package struct QuotedValue: CustomStringConvertible {
    package static let maximumLength = 40

    package let text: String

    package init(_ text: String) {
        self.text = text
    }

    package var description: String {
        // Passwords go before the cut, which could leave a URI's password without the "@" that ends it.
        let line = StoreLocation.redactingPasswords(in: text).split(whereSeparator: \.isNewline).joined(separator: " ")
        let shown = line.count > Self.maximumLength ? line.prefix(Self.maximumLength) + "…" : Substring(line)
        return "'\(shown)'"
    }
}
