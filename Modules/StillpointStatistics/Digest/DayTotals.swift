import PracticeLog

/// Sessions per day number, in an array over the days of real practice logs and a table for days beyond it (a
/// damaged row's start in the year 40,000), so that no day number can make the array huge.
struct DayTotals: Sendable {
    /// The day number of `counts[0]`.
    private var first = 0
    private var counts: [Int] = []
    private var seconds: [Double] = []
    private var beyond: [Int: SessionTally] = [:]
    /// Days of the array at most: 400 years.
    private static let span = 146_097

    mutating func add(day: Int, sessions: Int, seconds duration: Double) {
        if counts.isEmpty {
            first = day
        }
        if day >= first, day - first < counts.count {
            counts[day - first] += sessions
            seconds[day - first] += duration
            return
        }
        let low = min(first, day), high = max(first + counts.count - 1, day)
        guard high - low < Self.span else {
            beyond[day, default: SessionTally()].count += sessions
            beyond[day, default: SessionTally()].time += duration
            return
        }
        // Grow by a year at least, so that days arriving one by one do not copy the array each time.
        let newFirst = day < first ? min(day, first - 366) : first
        let newCount = max(high - newFirst + 1, day >= first ? counts.count + 366 : 0)
        var newCounts = Array(repeating: 0, count: newCount), newSeconds = Array(repeating: 0.0, count: newCount)
        for index in counts.indices {
            newCounts[first - newFirst + index] = counts[index]
            newSeconds[first - newFirst + index] = seconds[index]
        }
        (first, counts, seconds) = (newFirst, newCounts, newSeconds)
        add(day: day, sessions: sessions, seconds: duration)
    }

    /// The days with sessions, in order.
    var tallies: [DayTally] {
        var days: [(Int, SessionTally)] = []
        for index in counts.indices where counts[index] > 0 {
            days.append((first + index, SessionTally(count: counts[index], time: seconds[index])))
        }
        days += beyond.filter { $0.value.count > 0 }.map { ($0.key, $0.value) }
        return days.sorted { $0.0 < $1.0 }.map { DayTally(day: LocalDay(dayNumber: $0.0), tally: $0.1) }
    }
}
