/// A vertical bar chart as inline SVG: one bar per category, round gridlines, a tooltip per bar.
///
/// ```swift
/// let chart = BarChart(bars: [.init(label: "Mon", value: 3, tooltip: "Monday: 3 sessions")], style: "sage",
///                      tickLabel: { ValueText.whole($0) })
/// chart.svg(description: "Sessions by weekday")   // "<svg ...>...</svg>"
/// ```
struct BarChart {
    /// One category.
    struct Bar {
        var label: String
        var value: Double
        /// Printed above the bar when there is room; `nil` to print nothing.
        var valueLabel: String?
        var tooltip: String

        init(label: String, value: Double, valueLabel: String? = nil, tooltip: String) {
            self.label = label
            self.value = value
            self.valueLabel = valueLabel
            self.tooltip = tooltip
        }
    }

    var bars: [Bar]
    /// The colour of the bars, a class of the page's style sheet: `sage`, `lavender`, `sand`.
    var style: String
    /// The text of a gridline's value.
    var tickLabel: (Double) -> String
    /// Label every nth category only, for crowded axes (the 24 hours).
    var labelEvery: Int = 1
    var width: Double = 560
    var height: Double = 230
    /// Whether one bar far above the others (``outlierFactor`` times the next) is cut short: the axis then
    /// fits the other bars, and the outlier reaches the top with a break across it and its value written
    /// above, so that one retreat does not flatten every other bar.
    var capsOutliers = false

    /// How many times the next bar's value a bar must reach to be cut short.
    static let outlierFactor = 2.0

    /// The index of the bar cut short, if any: the largest, when it is ``outlierFactor`` times the next.
    var outlierIndex: Int? {
        guard capsOutliers, bars.count >= 3 else { return nil }
        let order = bars.indices.sorted { bars[$0].value > bars[$1].value }
        let largest = bars[order[0]].value, next = bars[order[1]].value
        return next > 0 && largest >= Self.outlierFactor * next ? order[0] : nil
    }

    func svg(description: String) -> String {
        let (left, right, top, bottom) = (44.0, 8.0, 20.0, 26.0)
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let outlier = outlierIndex
        let scale = AxisScale(maximum: bars.indices.filter { $0 != outlier }.map { bars[$0].value }.max() ?? 0)
        let slot = plotWidth / Double(max(1, bars.count))
        let barWidth = min(44, slot * 0.64)
        let n = HTMLText.number
        var svg = "<svg class=\"chart\" viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" aria-label=\"\(HTMLText.escape(description))\">"
        // With every bar at zero the axis has no scale: its top gridline is drawn without a value, since "1m"
        // there would be a number no bar has.
        let isEmpty = !bars.contains { $0.value > 0 }
        for tick in scale.ticks {
            let y = top + plotHeight * (1 - scale.fraction(tick))
            svg += "<line class=\"grid\" x1=\"\(n(left))\" y1=\"\(n(y))\" x2=\"\(n(width - right))\" y2=\"\(n(y))\"/>"
            guard tick == 0 || !isEmpty else { continue }
            // Zero is zero in any unit: "0" reads better than "0s" at the foot of an axis.
            let label = tick == 0 ? "0" : tickLabel(tick)
            svg += "<text class=\"tick\" x=\"\(n(left - 8))\" y=\"\(n(y + 4))\" text-anchor=\"end\">\(HTMLText.escape(label))</text>"
        }
        for (index, bar) in bars.enumerated() {
            let centre = left + slot * (Double(index) + 0.5)
            // Empty categories keep a sliver, so a quiet Sunday reads as zero rather than as missing.
            let barHeight = max(bar.value > 0 ? 2 : 1.5, plotHeight * scale.fraction(bar.value))
            let y = top + plotHeight - barHeight
            let kind = bar.value > 0 ? "bar \(style)" : "bar empty"
            svg += "<g><title>\(HTMLText.escape(bar.tooltip))</title>"
            if index == outlier {
                // Cut short at the top of the axis, with a break across it and its whole value above.
                let x = centre - barWidth / 2
                svg += "<rect class=\"\(kind) outlier\" x=\"\(n(x))\" y=\"\(n(top))\" width=\"\(n(barWidth))\" height=\"\(n(plotHeight))\" rx=\"\(n(min(4, barWidth / 4)))\" data-value=\"\(n(bar.value))\"/>"
                for offset in [14.0, 20.0] {
                    svg += "<line class=\"break\" x1=\"\(n(x - 2))\" y1=\"\(n(top + offset + 3))\" x2=\"\(n(x + barWidth + 2))\" y2=\"\(n(top + offset - 3))\"/>"
                }
                svg += "<text class=\"value outlier\" x=\"\(n(centre))\" y=\"\(n(top - 6))\" text-anchor=\"middle\">\(HTMLText.escape(bar.valueLabel ?? tickLabel(bar.value)))</text>"
            } else {
                svg += "<rect class=\"\(kind)\" x=\"\(n(centre - barWidth / 2))\" y=\"\(n(y))\" width=\"\(n(barWidth))\" height=\"\(n(barHeight))\" rx=\"\(n(min(4, barWidth / 4)))\"/>"
                if let valueLabel = bar.valueLabel, bar.value > 0 {
                    svg += "<text class=\"value\" x=\"\(n(centre))\" y=\"\(n(y - 5))\" text-anchor=\"middle\">\(HTMLText.escape(valueLabel))</text>"
                }
            }
            svg += "</g>"
            if index % max(1, labelEvery) == 0 {
                svg += "<text class=\"label\" x=\"\(n(centre))\" y=\"\(n(height - 8))\" text-anchor=\"middle\">\(HTMLText.escape(bar.label))</text>"
            }
        }
        return svg + "</svg>"
    }
}
