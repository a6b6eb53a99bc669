import Foundation

/// A value axis from zero with round tick steps (1, 2 or 5 times a power of ten), so gridlines land on
/// numbers people would pick.
///
/// ```swift
/// AxisScale(maximum: 37).ticks   // [0, 10, 20, 30, 40]
/// AxisScale(maximum: 0).ticks    // [0, 1]
/// ```
struct AxisScale {
    /// The ticks, from 0 up to the first one at or above the maximum.
    let ticks: [Double]

    /// The top of the axis, the last tick.
    var top: Double { ticks.last ?? 1 }

    init(maximum: Double, targetTicks: Int = 4) {
        guard maximum.isFinite, maximum > 0 else {
            ticks = [0, 1]
            return
        }
        let rough = maximum / Double(max(1, targetTicks))
        let power = pow(10, (log10(rough)).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
        let count = Int((maximum / step).rounded(.up))  // swiftlint:disable:this trapping_conversion: a finite maximum, a step near it
        ticks = (0...max(1, count)).map { Double($0) * step }
    }

    /// Where `value` falls between 0 (bottom) and 1 (top).
    func fraction(_ value: Double) -> Double {
        top > 0 ? min(1, max(0, value / top)) : 0
    }
}
