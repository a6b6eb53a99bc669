import Foundation
import PracticeLog

/// Reading instants given on the command line.
enum SessionInstant {
    /// An ISO 8601 instant with a zone (`2024-03-15T12:00:00Z`), or a date (`2024-03-15`, its start in UTC);
    /// `nil` for anything else, including a date or time that does not exist (`2024-02-30`, `T25:00`).
    static func parse(_ text: String) -> Date? {
        ISOInstant.parse(text)
    }
}
