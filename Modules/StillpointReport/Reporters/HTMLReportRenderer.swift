import Foundation
import PracticeLog
import StillpointStatistics

/// The report as one self-contained HTML page: inline CSS and inline SVG charts, no script and no
/// network, so it opens anywhere and can be mailed or archived as a single file.
///
/// The page shows a card for each statistic, then the charts: a calendar heatmap of active days over the
/// last 52 weeks (from ``Report/activity``), sessions by weekday and by hour, totals by month, and the
/// streak timeline. A chart without data says so.
///
/// ```swift
/// let html = HTMLReportRenderer().render(report)
/// try html.write(to: URL(fileURLWithPath: "report.html"), atomically: true, encoding: .utf8)
/// ```
public struct HTMLReportRenderer: ReportRenderer {
    public let id = "html"

    /// The statistics that have a chart of their own instead of a card.
    static let chartedStatistics: Set<String> = [
        "sessions_by_weekday", "sessions_by_hour", "totals_by_period", "best_streaks", "current_streak", "longest_streak",
    ]

    public init() {}

    public func render(_ report: Report) -> String {
        let page = Page(report: report)
        let title = "Practice report · " + DayText.medium(page.today)
        var html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="generator" content="Stillpoint">
        <title>\(HTMLText.escape(title))</title>
        <style>
        \(HTMLStyle.css)
        </style>
        </head>
        <body>
        <main>

        """
        html += masthead(page)
        html += cards(page)
        html += heatmapPanel(page)
        html += "<div class=\"pair\">\n" + weekdayPanel(page) + hourPanel(page) + "</div>\n"
        html += periodPanel(page)
        html += streakPanel(page)
        html += "<footer>Made with Stillpoint · this page is self-contained and works offline</footer>\n"
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    /// What the sections share: the report, its day, and which entry each chart draws.
    struct Page {
        var report: Report
        var today: LocalDay
        /// For each charted statistic, the first entry with its id: the one the chart draws.
        var chartEntries: [String: Int] = [:]

        init(report: Report) {
            self.report = report
            // Days start at midnight here: the manifest's day_starts_at is not part of a report, and at worst
            // the heatmap shows one empty day more.
            today = DayBoundary(timeZone: report.timeZone).day(of: report.asOf)
            for (index, entry) in report.entries.enumerated()
            where HTMLReportRenderer.chartedStatistics.contains(entry.id) && chartEntries[entry.id] == nil {
                chartEntries[entry.id] = index
            }
        }

        /// The entry a chart draws, if the manifest has the statistic.
        func chartEntry(_ id: String) -> ReportEntry? {
            chartEntries[id].map { report.entries[$0] }
        }

        /// The value a chart draws when its statistic finished.
        func value(_ id: String) -> StatisticValue? {
            if case .finished(let result)? = chartEntry(id)?.outcome { return result.value }
            return nil
        }

        /// Why a chart has nothing to draw when its statistic did not finish, or is not in the manifest.
        func missing(_ id: String) -> String? {
            switch chartEntry(id)?.outcome {
            case nil: "This report's manifest does not include \(id)."
            case .failed(let message)?: "\(id) failed: \(message)"
            case .cancelled?, .waiting?, .running?: "\(id) was cancelled."
            case .finished?: nil
            }
        }
    }

    private func masthead(_ page: Page) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = page.report.timeZone
        formatter.dateFormat = "HH:mm"
        let subtitle = "As of " + DayText.long(page.today) + ", " + formatter.string(from: page.report.asOf)
            + " · " + ZoneName.of(page.report.timeZone)
        // Three rings, the stillpoint at their centre: a mark drawn inline, like everything else on the page.
        return """
        <header class="masthead">
        <svg class="mark" viewBox="0 0 52 52" aria-hidden="true"><circle cx="26" cy="26" r="24" stroke-width="1.5" opacity=".35"/><circle cx="26" cy="26" r="16" stroke-width="1.5" opacity=".6"/><circle cx="26" cy="26" r="7" stroke-width="2"/></svg>
        <div><h1>Your practice</h1><p class="subtitle">\(HTMLText.escape(subtitle))</p></div>
        </header>
        \(page.report.notice.map { "<p class=\"notice\" role=\"note\">" + HTMLText.escape($0) + "</p>\n" } ?? "")

        """
    }

    /// A section with a heading, a caption, and a chart or the reason there is none.
    func panel(_ title: String, caption: String?, body: String?, empty: String) -> String {
        var html = "<section class=\"panel\">\n<div class=\"panel-head\"><h2>\(HTMLText.escape(title))</h2>"
        if let caption { html += "<p>\(HTMLText.escape(caption))</p>" }
        html += "</div>\n"
        html += body ?? "<p class=\"empty\">\(HTMLText.escape(empty))</p>"
        return html + "\n</section>\n"
    }
}
