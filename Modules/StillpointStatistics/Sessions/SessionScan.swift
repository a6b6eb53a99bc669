import Foundation
import PracticeLog
import StillpointCore

/// Reads qualifying sessions through a cursor, for statistics that need each session's local day or hour.
///
/// Memory stays flat: rows stream from SQLite and no object is made. Aggregates that SQL can do alone
/// (sums, counts, averages) should use a dictionary fetch instead.
///
/// ```swift
/// let days = try SessionScan.activeDays(filter, boundary: boundary, in: context)
/// ```
public enum SessionScan {
    /// Calls `body` with each qualifying session, in store order (a table scan: no sort, no index look-ups).
    public static func forEach(_ filter: SessionFilter, in context: isolated ObjectContext,
                               _ body: (ScannedSession) throws -> Void) throws {
        var request = filter.request()
        // Only what local days and hours need: every column read costs on a scan of a million rows.
        request.properties = [.attribute("start"), .attribute("duration"), .attribute("timeZone")]
        var zones: [String: TimeZone] = [:]
        try context.forEachRow(request) { values in
            guard case .date(let start) = values[0] else { return }
            let duration = Double(attributeValue: values[1]) ?? 0
            var zone: TimeZone?
            if case .string(let identifier) = values[2] {
                if let cached = zones[identifier] {
                    zone = cached
                } else {
                    zone = TimeZone(identifier: identifier)
                    zones[identifier] = zone
                }
            }
            try body(ScannedSession(start: start, duration: duration, timeZone: zone))
        }
    }

    /// The distinct days with a qualifying session, in order.
    public static func activeDays(_ filter: SessionFilter, boundary: DayBoundary, in context: isolated ObjectContext) throws -> [LocalDay] {
        var days = Set<LocalDay>()
        try forEach(filter, in: context) { session in
            days.insert(boundary.day(of: session.start, timeZone: session.timeZone))
        }
        return days.sorted()
    }
}
