import Foundation
import PracticeLog

/// The `practitioners` suite's data: N practitioners, each practising over the ten years before ``asOf`` in one
/// of five zones, generated the same on every machine (a ``SeededGenerator`` per practitioner, seeded by their
/// number).
///
/// Each practitioner practises on a share of days of their own (30–62 %), once on such a day in the morning
/// (05:00–12:00 local) and, one day in four, again in the evening (14:00–22:00), 5 to 95 minutes, meditation or
/// yoga: about 2,100 sessions each, 21 million for 10,000 practitioners. Local times stay clear of the hours
/// when clocks change, so a wall-clock time read in the practitioner's zone is one instant.
///
/// ```swift
/// let data = PractitionerData(practitioners: 1_000)
/// for session in data.sessions(of: 7) { print(session.start, session.localText) }
/// ```
struct PractitionerData: Sendable {
    let practitioners: Int
    /// The share of a full practitioner's sessions each one has: 1 for the suite's sizes, less for a smoke run.
    let density: Double

    /// The instant the reports are made at, a fixed one so that runs compare: 2026-09-21T12:00:00Z.
    static let asOf = Date(timeIntervalSince1970: Double(lastDay) * 86_400 + 43_200)
    /// The last day of practice, in days since 1970-01-01.
    static let lastDay = 20_717
    static let days = 3_652
    static let zones = ["America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Sydney", "Asia/Tokyo"]

    /// Each zone's offset from UTC on each day (at 12:00 UTC, after any change of the clocks that day in these zones).
    private let offsets: [[Int]]

    init(practitioners: Int, density: Double = 1) {
        self.practitioners = practitioners
        self.density = density
        offsets = Self.zones.map { name in
            let zone = TimeZone(identifier: name) ?? .gmt
            return (0..<Self.days).map { index in
                zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(Self.firstDay + index) * 86_400 + 43_200))
            }
        }
    }

    static var firstDay: Int { lastDay - days + 1 }

    /// The id of practitioner `number`: `p00042`, so that ids sort as numbers do.
    static func id(_ number: Int) -> String {
        "p" + String(repeating: "0", count: max(0, 5 - String(number).count)) + String(number)
    }

    static func zone(_ number: Int) -> String { zones[number % zones.count] }

    struct GeneratedSession: Sendable {
        /// Seconds since 1970 (UTC).
        let start: Double
        let duration: Double
        let kind: String
        /// The wall-clock start in the practitioner's zone, as the CSV import reads it: `2019-03-04T07:15:00`.
        let localText: String
        /// The zone's offset from UTC at the start, in seconds.
        let localOffset: Int
        /// A key unique within the practitioner (the start's local text and kind, as an import's key would be).
        var key: String { localText + "|" + kind }
    }

    /// The sessions of practitioner `number`, in start order.
    func sessions(of number: Int) -> [GeneratedSession] {
        var random = SeededGenerator(seed: UInt64(number) &* 0x9E37_79B9 &+ 1)
        let share = Double.random(in: 0.30..<0.62, using: &random) * density
        let zoneOffsets = offsets[number % Self.zones.count]
        var sessions: [GeneratedSession] = []
        sessions.reserveCapacity(Int(Double(Self.days) * share * 1.3))
        for index in 0..<Self.days where Double.random(in: 0..<1, using: &random) < share {
            let day = Self.firstDay + index
            let twice = Double.random(in: 0..<1, using: &random) < 0.25
            for (earliest, latest) in twice ? [(5, 12), (14, 22)] : [(5, 12)] {
                let local = Int.random(in: (earliest * 3_600)..<(latest * 3_600), using: &random)
                let duration = Double(Int.random(in: 300..<5_700, using: &random))
                let kind = Bool.random(using: &random) ? "meditation" : "yoga"
                sessions.append(GeneratedSession(start: Double(day * 86_400 + local - zoneOffsets[index]), duration: duration,
                                                 kind: kind, localText: Self.localText(day: day, seconds: local),
                                                 localOffset: zoneOffsets[index]))
            }
        }
        return sessions
    }

    /// `YYYY-MM-DDTHH:MM:SS` of a day number and the seconds into it (the civil calendar from days, H. Hinnant's).
    static func localText(day: Int, seconds: Int) -> String {
        let z = day + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let dayOfMonth = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(dayOfMonth))T\(two(seconds / 3_600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
    }
}
