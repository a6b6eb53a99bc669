import Foundation

/// A day of the week, named so that reports never leave an index to guess.
///
/// `allCases` and `<` follow the ISO order, Monday first; `week(startingOn:)` gives other orders.
///
/// ```swift
/// Weekday.sunday.rawValue                        // "sunday"
/// Weekday.week(startingOn: .sunday).first        // .sunday
/// ```
public enum Weekday: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The ISO 8601 number of the day: 1 for Monday through 7 for Sunday.
    ///
    /// ```swift
    /// Weekday.sunday.isoNumber   // 7
    /// ```
    public var isoNumber: Int {
        index + 1
    }

    /// The seven days of a week that starts on `first`, in calendar order.
    ///
    /// ```swift
    /// Weekday.week(startingOn: .sunday)   // [.sunday, .monday, ..., .saturday]
    /// ```
    public static func week(startingOn first: Weekday) -> [Weekday] {
        (0..<7).map { Weekday(index: first.index + $0) }
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        lhs.index < rhs.index
    }

    /// Position in `allCases`, 0 for Monday.
    var index: Int {
        switch self {
        case .monday: 0
        case .tuesday: 1
        case .wednesday: 2
        case .thursday: 3
        case .friday: 4
        case .saturday: 5
        case .sunday: 6
        }
    }

    /// The weekday at `index` modulo 7, 0 being Monday; negative indices count backwards.
    init(index: Int) {
        let cases = Weekday.allCases
        self = cases[((index % 7) + 7) % 7]
    }
}
