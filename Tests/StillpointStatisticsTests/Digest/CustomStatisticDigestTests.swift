import Foundation
import PracticeLog
import StillpointCore
@testable import StillpointManifest
@testable import StillpointStatistics
import Testing

/// Custom statistics over the digest's attributes give what the store's `GROUP BY` query gives.
@Suite("custom statistics from the digest")
struct CustomStatisticDigestTests {
    static let statistics: [CustomStatistic] = {
        func custom(_ function: AggregateFunction, _ attribute: String?, where format: String? = nil,
                    groupBy: [String] = []) -> CustomStatistic {
            // swiftlint:disable:next force_try: literal definitions of the test
            try! CustomStatistic(id: "custom", function: function, attribute: attribute, where: format, groupBy: groupBy)
        }
        return [
            custom(.count, nil),
            custom(.sum, "duration", where: "kind ==[c] 'yoga'"),
            custom(.average, "duration", groupBy: ["kind"]),
            custom(.minimum, "start", groupBy: ["source"]),
            custom(.maximum, "kind"),
            custom(.count, "timeZone", groupBy: ["kind", "source"]),
            custom(.maximum, "duration", where: "duration > 1200 AND start >= %@ AND timeZone BEGINSWITH 'A'".replacingOccurrences(
                of: "%@", with: "CAST(700000000, 'NSDate')")),
            custom(.sum, "duration", where: "kind IN {'méditation', 'Yoga'} OR source == 'insight-timer'", groupBy: ["timeZone"]),
        ]
    }()

    @Test(arguments: statistics.indices)
    func theDigestGivesTheStoresValue(_ index: Int) async throws {
        let statistic = Self.statistics[index]
        #expect(statistic.readsDigest)
        let store = try await DigestTestStore(sessions: 1_500)
        defer { store.remove() }
        let digest = try await store.digest()
        for filter in SessionDigestTests.filters {
            let fromStore = try await store.container.performBackgroundTask { context in
                try statistic.value(filter: filter, in: context)
            }
            #expect(Self.close(statistic.value(from: digest, filter: filter), fromStore),
                    "\(statistic.description.summary) with \(filter)")
        }
    }

    @Test func aStatisticOfAnAttributeTheDigestLacksReadsTheStore() throws {
        let statistic = try CustomStatistic(id: "noted", function: .count, where: "note != nil")
        #expect(!statistic.readsDigest)
    }

    /// Equal, numbers within rounding (sums in another order).
    static func close(_ lhs: StatisticValue, _ rhs: StatisticValue) -> Bool {
        switch (lhs, rhs) {
        case (.quantity(let a, let unitA), .quantity(let b, let unitB)):
            return unitA == unitB && abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
        case (.record(let a), .record(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && close($0.value, $1.value) }
        default:
            return lhs == rhs
        }
    }
}
