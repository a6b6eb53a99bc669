import Foundation

/// Reading instants given on the command line.
enum SessionInstant {
    /// An ISO 8601 instant with a zone (`2024-03-15T12:00:00Z`), or a date (`2024-03-15`, its start in UTC).
    static func parse(_ text: String) -> Date? {
        if let instant = try? Date(text, strategy: .iso8601) { return instant }
        return try? Date(text + "T00:00:00Z", strategy: .iso8601)
    }
}
