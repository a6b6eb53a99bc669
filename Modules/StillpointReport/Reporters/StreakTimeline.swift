import PracticeLog

/// The streak timeline: each of the best runs of active days, and the current one, as a bar on a shared
/// time axis that ends today, one row each, oldest first.
///
/// ```swift
/// let timeline = StreakTimeline(runs: [.init(start: LocalDay("2024-01-03")!, end: LocalDay("2024-02-10")!)],
///                               today: LocalDay("2024-03-15")!)
/// timeline.svg()   // nil when there is no run
/// ```
struct StreakTimeline {
    /// A run of active days.
    struct Run: Hashable {
        var start: LocalDay
        var end: LocalDay
        var isCurrent = false

        var length: Int { start.distance(to: end) + 1 }
    }

    var runs: [Run]
    var today: LocalDay
    var width = 1000.0

    /// The runs to draw: the best ones, and the current one unless it is among them, oldest first.
    ///
    /// ```swift
    /// StreakTimeline.runs(best: best, current: 4, activeDays: days, today: today)
    /// ```
    static func runs(best: [Run], current: Int?, activeDays: Set<LocalDay>, today: LocalDay) -> [Run] {
        var runs = best
        if let current, current > 0 {
            // A current streak ends today, or yesterday while today is still open; the activity says which.
            let end = activeDays.isEmpty || activeDays.contains(today) ? today : today.adding(days: -1)
            let run = Run(start: end.adding(days: -(current - 1)), end: end, isCurrent: true)
            if let index = runs.firstIndex(where: { $0.end == run.end }) {
                runs[index].isCurrent = true
            } else {
                runs.append(run)
            }
        }
        return runs.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
    }

    func svg() -> String? {
        guard !runs.isEmpty else { return nil }
        let n = HTMLText.number
        let (left, right, rowHeight, top) = (92.0, 16.0, 30.0, 8.0)
        // At least the last year, so short runs are not stretched across the whole width.
        let first = min(runs.map(\.start).min() ?? today, today.adding(days: -364))
        let span = Double(first.distance(to: today) + 1)
        let plotWidth = width - left - right
        let x = { (day: LocalDay) in left + plotWidth * Double(first.distance(to: day)) / span }
        let axisY = top + rowHeight * Double(runs.count) + 6
        let height = axisY + 28
        let longest = runs.map(\.length).max() ?? 0
        var svg = "<svg class=\"chart timeline\" viewBox=\"0 0 \(n(width)) \(n(height))\" role=\"img\" aria-label=\"Streak timeline\">"

        for tick in ticks(from: first) {
            let tickX = x(tick.day)
            svg += "<line class=\"grid\" x1=\"\(n(tickX))\" y1=\"\(n(top))\" x2=\"\(n(tickX))\" y2=\"\(n(axisY))\"/>"
            if let label = tick.label {
                svg += "<text class=\"tick\" x=\"\(n(tickX))\" y=\"\(n(axisY + 18))\" text-anchor=\"middle\">\(label)</text>"
            }
        }
        svg += "<line class=\"axis\" x1=\"\(n(left))\" y1=\"\(n(axisY))\" x2=\"\(n(width - right))\" y2=\"\(n(axisY))\"/>"

        for (row, run) in runs.enumerated() {
            let y = top + rowHeight * Double(row)
            let startX = x(run.start), endX = max(x(run.end.adding(days: 1)), startX + 5)
            let kind = run.isCurrent ? "current" : run.length == longest ? "longest" : "run"
            let days = ValueText.plural(Double(run.length), "day", "days")
            let caption = DayText.range(run.start, run.end) + (run.isCurrent ? " · current" : "")
                + (run.length == longest ? " · longest" : "")
            svg += "<g><title>\(HTMLText.escape(days + ": " + caption))</title>"
            svg += "<text class=\"run-length \(kind)\" x=\"\(n(left - 12))\" y=\"\(n(y + 19))\" text-anchor=\"end\">\(days)</text>"
            svg += "<rect class=\"streak \(kind)\" x=\"\(n(startX))\" y=\"\(n(y + 7))\" width=\"\(n(endX - startX))\" height=\"16\" rx=\"8\"/>"
            // The dates go right of the bar; left of it when the bar ends near today and there is room between
            // the day count and the bar; else inside a long bar, or, shortened to the dates, wherever they fit.
            let place = Self.captionPlace(caption, startX: startX, endX: endX, left: left, right: width - right)
            svg += "<text class=\"caption\(place.inside ? " inside" : "")\" x=\"\(n(place.x))\" y=\"\(n(y + 19))\" text-anchor=\"\(place.anchor)\">\(HTMLText.escape(place.text))</text>"
            svg += "</g>"
        }
        return svg + "</svg>"
    }

    /// The width a caption takes, in the chart's units: 7 per character of its 12-unit font, generously.
    static func textWidth(_ text: String) -> Double {
        7 * Double(text.count)
    }

    /// Where a bar's caption goes: right of the bar; else left of it, between the day counts (which end at
    /// `left` - 12) and the bar; else inside the bar when it is long enough; else the dates alone, right of the
    /// bar, left of it, or inside it, in that order. Never over the day count, never off the chart.
    static func captionPlace(_ caption: String, startX: Double, endX: Double, left: Double, right: Double)
        -> (x: Double, anchor: String, text: String, inside: Bool) {
        let gap = 8.0
        let texts = [caption, caption.components(separatedBy: " · ").first ?? caption]
        for text in texts {
            let width = textWidth(text)
            if endX + gap + width <= right { return (endX + gap, "start", text, false) }
            if startX - gap - width >= left { return (startX - gap, "end", text, false) }
            if endX - startX >= width + 2 * gap { return (startX + gap, "start", text, true) }
        }
        // A short bar in a crowded row: the dates alone, right-aligned at the chart's edge.
        return (right, "end", texts[1], false)
    }

    /// Gridlines: the first of every month over a span of up to 18 months (January named by its year), the
    /// first of every year beyond.
    private func ticks(from first: LocalDay) -> [(day: LocalDay, label: String?)] {
        var ticks: [(day: LocalDay, label: String?)] = []
        let months = first.distance(to: today) <= 550
        var day = first.startOfMonth
        if day < first { day = Self.nextMonth(day) }
        while day <= today {
            if months {
                ticks.append((day, day.month == 1 ? String(day.year) : DayText.month(day.month)))
            } else if day.month == 1 {
                ticks.append((day, String(day.year)))
            }
            day = Self.nextMonth(day)
        }
        return ticks
    }

    private static func nextMonth(_ day: LocalDay) -> LocalDay {
        day.startOfMonth.adding(days: 32).startOfMonth
    }
}
