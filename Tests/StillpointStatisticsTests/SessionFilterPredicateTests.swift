import Foundation
import PracticeLog
import StillpointCore
import Testing
@testable import StillpointStatistics

/// The filter builds its predicate from ``Session``'s typed attributes: the tree must be the one its conditions
/// spelled as a format parse to, whatever the filter holds.
@Suite("SessionFilter predicate")
struct SessionFilterPredicateTests {
    static let asOf = Date(timeIntervalSince1970: 1_710_504_000)        // 2024-03-15T12:00:00Z
    static let from = Date(timeIntervalSince1970: 1_709_251_200)        // 2024-03-01
    static let until = Date(timeIntervalSince1970: 1_711_929_600)       // 2024-04-01

    static let filters: [SessionFilter] = [
        SessionFilter(asOf: asOf),
        SessionFilter(minimumDuration: 0, asOf: asOf),
        SessionFilter(minimumDuration: 600, asOf: asOf),
        SessionFilter(kinds: ["yoga", "meditation"], asOf: asOf),
        SessionFilter(kinds: [], asOf: asOf),
        SessionFilter(kinds: ["yoga"], minimumDuration: 90, from: from, until: until, asOf: asOf),
    ]

    /// The filter's conditions as a format: the spelling statistics used before the typed attributes.
    static func format(of filter: SessionFilter) throws -> FetchPredicate {
        var format = "duration \(filter.minimumDuration.map { $0 > 0 } == true ? ">=" : ">") %@"
        var arguments: [any PredicateArgumentConvertible] = [max(filter.minimumDuration ?? 0, 0)]
        format += " AND duration <= %@ AND start >= %@ AND start <= %@"
        arguments += [SessionFilter.longestSession, SessionFilter.earliestStart, filter.asOf]
        if let from = filter.from {
            format += " AND start >= %@"
            arguments.append(from)
        }
        if let until = filter.until {
            format += " AND start < %@"
            arguments.append(until)
        }
        if let kinds = filter.kinds {
            format += " AND kind IN %@"
            arguments.append(kinds)
        }
        return try FetchPredicate(format: format, arguments: arguments.map(\.predicateArgument))
    }

    @Test(arguments: filters)
    func isTheTreeOfItsFormat(_ filter: SessionFilter) throws {
        let expected = try Self.format(of: filter)
        #expect(filter.predicate == expected)
        #expect(filter.predicate.description == expected.description)
        #expect(filter.request().predicate == expected)
    }

    @Test func spellsEachCondition() {
        let filter = SessionFilter(kinds: ["yoga"], minimumDuration: 90, from: Self.from, until: Self.until, asOf: Self.asOf)
        #expect(filter.predicate.referencedKeys == ["duration", "start", "kind"])
        #expect(filter.predicate.description.hasPrefix("duration >= 90.0 AND duration <= 31622400.0 AND start >= CAST("))
        #expect(filter.predicate.description.hasSuffix(" AND kind IN {\"yoga\"}"))
        #expect(SessionFilter(asOf: Self.asOf).predicate.description.hasPrefix("duration > 0.0 AND "))
    }
}
