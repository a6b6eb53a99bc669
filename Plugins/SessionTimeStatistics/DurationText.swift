import Foundation

/// A duration as people write it in a note: `4 h`, `1 h 30 min`, `45 s`.
///
/// ```swift
/// DurationText.describe(5_400)   // "1 h 30 min"
/// ```
enum DurationText {
    static func describe(_ seconds: TimeInterval) -> String {
        // Notes name limits people chose (4h, 90m), so whole seconds are precise enough.
        let whole = Int(seconds.rounded())  // swiftlint:disable:this trapping_conversion: manifest durations lie within 366 days
        let parts = [(whole / 3600, "h"), (whole % 3600 / 60, "min"), (whole % 60, "s")]
            .filter { $0.0 != 0 }
            .map { "\($0.0) \($0.1)" }
        return parts.isEmpty ? "0 s" : parts.joined(separator: " ")
    }
}
