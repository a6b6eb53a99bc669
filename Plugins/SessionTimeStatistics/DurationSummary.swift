import Foundation
import PracticeLog
import StillpointCore

/// The count, sum and maximum of the durations of the sessions a predicate selects, computed in one SQL query.
///
/// ```swift
/// let summary = try DurationSummary(matching: filter.predicate, in: context)
/// summary.count, summary.total, summary.longest
/// ```
struct DurationSummary: Sendable, Hashable {
    var count: Int
    /// The sum of the durations, in seconds.
    var total: TimeInterval
    /// The longest duration, `nil` when there is no session.
    var longest: TimeInterval?

    static let empty = DurationSummary(count: 0, total: 0, longest: nil)

    init(count: Int, total: TimeInterval, longest: TimeInterval?) {
        self.count = count
        self.total = total
        self.longest = longest
    }

    init(matching predicate: FetchPredicate, in context: isolated ObjectContext) throws {
        var request = FetchRequest(Session.self, predicate: predicate)
        request.properties = [.count(as: "n"), .aggregate(.sum, of: "duration", as: "total"),
                              .aggregate(.maximum, of: "duration", as: "longest")]
        var summary = DurationSummary.empty
        try context.forEachRow(request) { values in
            // SUM and MAX of no rows are NULL; COUNT is 0.
            summary = DurationSummary(count: Int(attributeValue: values[0]) ?? 0,
                                      total: Double(attributeValue: values[1]) ?? 0,
                                      longest: Double(attributeValue: values[2]))
        }
        self = summary
    }
}
