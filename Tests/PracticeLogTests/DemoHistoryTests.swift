import Foundation
import StillpointCore
import StillpointSQLite
import Testing
@testable import PracticeLog

@Suite("DemoHistory")
struct DemoHistoryTests {
    static let end = Date(timeIntervalSince1970: 1_763_800_000)  // 2025-11-22

    @Test func isDeterministicAndTheRequestedSize() {
        let first = Array(DemoHistory(sessions: 3_000, years: 4, endingAt: Self.end))
        let second = Array(DemoHistory(sessions: 3_000, years: 4, endingAt: Self.end))
        #expect(first.count == 3_000)
        #expect(first == second)
        #expect(first != Array(DemoHistory(sessions: 3_000, years: 4, endingAt: Self.end, seed: 7)))
        #expect(Set(first.map(\.key)).count == first.count)
    }

    /// Hundreds of sessions a day, with trips across zones: two days' sessions must never share a start, or
    /// their keys would clash and the store would refuse the history part-way.
    @Test func keysAndStartsStayUniqueInADenseHistory() {
        let records = Array(DemoHistory(sessions: 400_000, years: 4, endingAt: Self.end))
        #expect(records.count == 400_000)
        #expect(Set(records.map(\.key)).count == records.count)
        #expect(Set(records.map(\.start)).count == records.count)
    }

    /// No session starts or ends after the history's end, whatever the hour it ends at and however dense the
    /// last days are (a million sessions over four years put about a thousand on a practising day).
    @Test(arguments: [0, 3 * 3_600, 7 * 3_600 + 59, 12 * 3_600, 19 * 3_600, 23 * 3_600 + 59 * 60])
    func noSessionEndsAfterTheEnd(secondsIntoTheDay: Int) {
        let end = Date(timeIntervalSince1970: 1_763_769_600 + Double(secondsIntoTheDay))  // 2025-11-22 plus the seconds
        let records = Array(DemoHistory(sessions: 300_000, years: 1, endingAt: end))
        #expect(records.count == 300_000)
        let late = records.filter { $0.start.addingTimeInterval($0.duration) > end }
        #expect(late.isEmpty, "\(late.count) sessions end after \(end): \(late.prefix(3))")
        #expect(Set(records.map(\.key)).count == records.count)
        #expect(Set(records.map(\.start)).count == records.count)
    }

    @Test func looksLikeARealPractice() throws {
        let records = Array(DemoHistory(sessions: 3_000, years: 4, endingAt: Self.end))
        let span = try #require(records.last).start.timeIntervalSince(try #require(records.first).start)
        #expect(span > 3 * 365 * 86_400, "several years")
        let kinds = Dictionary(grouping: records, by: \.kind).mapValues(\.count)
        #expect(kinds["meditation", default: 0] > 1_000 && kinds["yoga", default: 0] > 600)
        let zones = Set(records.compactMap(\.timeZone))
        #expect(zones.count >= 3, "travel to other zones")
        #expect(records.contains { $0.timeZone == nil })
        let days = Dictionary(grouping: records) { Int($0.start.timeIntervalSince1970 / 86_400) }
        #expect(days.values.contains { $0.count >= 2 }, "several sessions on some days")
        // Habits form and lapse: there are gaps of a week or more between practising periods.
        let dayNumbers = days.keys.sorted()
        let gaps = zip(dayNumbers, dayNumbers.dropFirst()).filter { $1 - $0 >= 7 }
        #expect(gaps.count >= 5)
        // Outliers as real exports have them: a timer stopped at once, and one forgotten for a few hours, not days.
        #expect(records.contains { $0.duration < 10 } && records.contains { $0.duration > 3 * 3_600 }, "outliers, as in real exports")
        #expect(records.allSatisfy { $0.duration <= 8 * 3_600 }, "no session runs for days")
    }

    @Test func writingTwiceAddsNothing() async throws {
        let container = try PersistentContainer(schema: Session.schema, location: .inMemory)
        let history = DemoHistory(sessions: 1_200, years: 2, endingAt: Self.end)
        #expect(try await history.write(to: container, batchSize: 500) == 1_200)
        #expect(try await history.write(to: container, batchSize: 500) == 0)
        let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Session.self)) }
        #expect(count == 1_200)
    }
}
