import Foundation

/// A realistic synthetic practice history: years of sessions with habits that form and lapse, meditation and
/// yoga, several sessions on some days, travel to other time zones, and the odd outlier a real export has.
///
/// The same parameters always give the same sessions.
///
/// ```swift
/// for record in DemoHistory(sessions: 2_000, years: 4, endingAt: Date()) { ... }
/// ```
public struct DemoHistory: Sequence, Sendable {
    public var sessions: Int
    public var years: Int
    public var endingAt: Date
    public var seed: UInt64

    public init(sessions: Int, years: Int = 4, endingAt: Date, seed: UInt64 = 108) {
        self.sessions = Swift.max(0, sessions)
        self.years = Swift.max(1, years)
        self.endingAt = endingAt
        self.seed = seed
    }

    public func makeIterator() -> Iterator {
        Iterator(history: self)
    }

    /// Generates the history day by day, oldest first (a session of the last days that would end after
    /// `endingAt` comes with its day, moved back before it).
    public struct Iterator: IteratorProtocol {
        private let history: DemoHistory
        private var random: SeededGenerator
        private var day = 0
        private var produced = 0
        private var pending: [SessionRecord] = []
        /// The start seconds of the last few days: a trip across zones can put two days' sessions at one instant,
        /// and distinct starts keep the keys unique.
        private var recentStarts: Set<Int> = []
        /// How many sessions each day of the history has, worked out up front so the total is exact.
        private let counts: [Int]
        /// The zone each day is lived in: home, or a trip.
        private let zones: [String]
        private let firstDay: Int

        private static let home = "Europe/Berlin"
        private static let travelZones = ["America/New_York", "Asia/Tokyo", "Europe/London", "America/Los_Angeles"]

        init(history: DemoHistory) {
            self.history = history
            var random = SeededGenerator(seed: history.seed)
            let dayCount = history.years * 365
            firstDay = Int((history.endingAt.timeIntervalSince1970 / 86_400).rounded(.down)) - dayCount + 1  // swiftlint:disable:this trapping_conversion: an ISO 8601 instant of years 1 to 9999
            // Phases of regular practice alternate with lapses; trips move the days to other zones.
            var weights: [Double] = []
            var zones: [String] = []
            var practising = false
            var phaseDaysLeft = 0
            var trip: (zone: String, daysLeft: Int)?
            for _ in 0..<dayCount {
                if phaseDaysLeft == 0 {
                    practising.toggle()
                    phaseDaysLeft = practising ? Int.random(in: 6...70, using: &random) : Int.random(in: 2...21, using: &random)
                }
                phaseDaysLeft -= 1
                if let current = trip {
                    trip = current.daysLeft > 1 ? (current.zone, current.daysLeft - 1) : nil
                } else if Double.random(in: 0..<1, using: &random) < 0.006 {
                    trip = (Self.travelZones.randomElement(using: &random)!, Int.random(in: 4...16, using: &random))  // swiftlint:disable:this force_unwrapping: a constant list
                }
                zones.append(trip?.zone ?? Self.home)
                weights.append(practising ? Double.random(in: 0.6...1.4, using: &random) : Double.random(in: 0...0.12, using: &random))
            }
            // Spread the sessions over the days by weight, then hand out what rounding left to the busiest days.
            let total = weights.reduce(0, +)
            var counts = weights.map { total > 0 ? Int((Double(history.sessions) * $0 / total).rounded(.down)) : 0 }
            var missing = history.sessions - counts.reduce(0, +)
            let byWeight = weights.indices.sorted { weights[$0] > weights[$1] }
            var index = 0
            while missing > 0, !byWeight.isEmpty {
                counts[byWeight[index % byWeight.count]] += 1
                missing -= 1
                index += Int.random(in: 1...7, using: &random)
            }
            self.counts = counts
            self.zones = zones
            self.random = random
        }

        public mutating func next() -> SessionRecord? {
            while pending.isEmpty {
                guard day < counts.count else { return nil }
                pending = sessions(on: day).reversed()
                day += 1
            }
            produced += 1
            return pending.removeLast()
        }

        private mutating func sessions(on index: Int) -> [SessionRecord] {
            let count = counts[index]
            guard count > 0 else { return [] }
            let day = firstDay + index
            let zoneName = zones[index]
            let zone = TimeZone(identifier: zoneName)!  // swiftlint:disable:this force_unwrapping: names from travelZones
            let weekend = [5, 6].contains(((day % 7) + 7 + 3) % 7)  // 1970-01-01 was a Thursday (3, Monday = 0)
            var records: [SessionRecord] = []
            let noon = Date(timeIntervalSince1970: Double(day) * 86_400 + 43_200)
            let localMidnight = day * 86_400 - zone.secondsFromGMT(for: noon)
            // Zones lie within a day of UTC, so only the starts of the two days before can collide with today's; a
            // session of the last days moved back before `endingAt` may land two days further back.
            recentStarts = recentStarts.filter { $0 >= localMidnight - 4 * 86_400 }
            for _ in 0..<count {
                let kind = pickKind(weekend: weekend)
                let minuteOfDay = Double.random(in: 0..<1, using: &random) < 0.6
                    ? Int.random(in: (6 * 60)...(8 * 60 + 30), using: &random)
                    : Int.random(in: (18 * 60 + 30)...(22 * 60 + 30), using: &random)
                var startSecond = localMidnight + minuteOfDay * 60 + Int.random(in: 0..<60, using: &random)
                while recentStarts.contains(startSecond) { startSecond += 1 }
                // Real exports hold a timer someone forgot to stop: make sure the demo has one too. A few hours,
                // as a forgotten timer is; days-long sessions would greet a newcomer as their longest session.
                let leftRunning = produced + records.count == history.sessions / 3
                let duration = leftRunning ? 4 * 3_600 + 12 * 60 + 41 : pickDuration(kind: kind)
                // The history ends at `endingAt`: a session of the last days that would end after it is moved back a
                // day at a time (then earlier by seconds past the starts taken), so that none starts or ends later.
                while Double(startSecond) + duration > history.endingAt.timeIntervalSince1970 {
                    startSecond -= 86_400
                    while recentStarts.contains(startSecond) { startSecond -= 1 }
                }
                recentStarts.insert(startSecond)
                let start = Date(timeIntervalSince1970: Double(startSecond))
                // Some exports carry no zone: the report's zone then decides the day.
                let recordedZone: String? = Double.random(in: 0..<1, using: &random) < 0.15 ? nil : zoneName
                records.append(SessionRecord(
                    start: start, duration: duration, kind: kind, source: DemoHistory.source, timeZone: recordedZone, note: nil,
                    key: "demo|\(history.seed)|\(startSecond)|\(kind)"))
            }
            return records.sorted { $0.start < $1.start }
        }

        private mutating func pickKind(weekend: Bool) -> String {
            let roll = Double.random(in: 0..<1, using: &random)
            if roll < (weekend ? 0.45 : 0.62) { return "meditation" }
            if roll < 0.95 { return "yoga" }
            return roll < 0.98 ? "walking" : "tai_chi"
        }

        private mutating func pickDuration(kind: String) -> TimeInterval {
            let roll = Double.random(in: 0..<1, using: &random)
            if roll < 0.004 { return Double(Int.random(in: 1...9, using: &random)) }   // a timer stopped at once
            if roll < 0.0045 { return Double(Int.random(in: 2...6, using: &random)) * 3_600 }  // left running
            let minutes: Double
            switch kind {
            case "yoga": minutes = [20, 30, 45, 60, 75].randomElement(using: &random)! + Double.random(in: -3...3, using: &random)  // swiftlint:disable:this force_unwrapping: a constant list
            case "meditation": minutes = [5, 10, 10, 15, 20, 20, 30, 45].randomElement(using: &random)!  // swiftlint:disable:this force_unwrapping: a constant list
            default: minutes = Double.random(in: 15...50, using: &random)
            }
            return (minutes * 60).rounded()
        }
    }
}
