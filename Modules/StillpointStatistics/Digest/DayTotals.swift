import PracticeLog

/// Sessions per day number, for the days with sessions only, in day order: a practitioner of ten years practises
/// on about 1,650 of their 3,650 days, and a service holds these sums for each of thousands of practitioners.
///
/// A day is 16 bytes (its number and count in 32 bits, its seconds as a `Double`, which sums durations exactly as
/// the store's own sums do). Day numbers outside 32 bits (a damaged row's start in the year 6,000,000) go to a
/// table beside the array, so that no start can be refused or wrap around.
struct DayTotals: Sendable {
    /// One day with sessions.
    struct Day: Sendable, Hashable {
        var number: Int32
        var count: Int32
        var seconds: Double
    }

    /// The days with sessions, by number; a day whose last session is counted out leaves.
    private(set) var days: [Day] = []
    private var beyond: [Int: SessionTally] = [:]

    mutating func add(day: Int, sessions: Int, seconds duration: Double) {
        guard let number = Int32(exactly: day), let change = Int32(exactly: sessions) else {
            beyond[day, default: SessionTally()].count += sessions
            beyond[day, default: SessionTally()].time += duration
            if beyond[day]?.count == 0 { beyond[day] = nil }
            return
        }
        // Sessions mostly arrive in day order (a scan by start, a new session today): the end first.
        let appends = days.last.map { $0.number < number } ?? true
        let index = appends ? days.endIndex : position(of: number)
        if index < days.endIndex, days[index].number == number {
            days[index].count += change
            days[index].seconds += duration
            if days[index].count == 0 { days.remove(at: index) }
        } else if change != 0 {
            days.reserveGently()
            days.insert(Day(number: number, count: change, seconds: duration), at: index)
        }
    }

    /// Lets go of the room the array grew into while the days were added, for sums that are kept.
    mutating func trimCapacity() {
        days = days.withExactCapacity()
    }

    /// The days with sessions, in order.
    var tallies: [DayTally] {
        var tallies = days.map { DayTally(day: LocalDay(dayNumber: Int($0.number)), tally: SessionTally(count: Int($0.count), time: $0.seconds)) }
        guard !beyond.isEmpty else { return tallies }
        tallies += beyond.filter { $0.value.count > 0 }.map { DayTally(day: LocalDay(dayNumber: $0.key), tally: $0.value) }
        return tallies.sorted { $0.day.dayNumber < $1.day.dayNumber }
    }

    /// The index of the day `number`, or where it would go.
    private func position(of number: Int32) -> Int {
        var low = 0, high = days.count
        while low < high {
            let middle = (low + high) / 2
            if days[middle].number < number { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
