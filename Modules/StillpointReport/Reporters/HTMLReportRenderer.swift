import Foundation
import PracticeLog
import StillpointManifest
import StillpointStatistics

/// The report as one self-contained HTML page: inline CSS and inline SVG charts, no script and no
/// network, so it opens anywhere and can be mailed or archived as a single file.
///
/// The page shows a card for each statistic presented as a value, then a chart for each of the others, by
/// the statistic's ``StatisticPresentation``: a calendar heatmap of active days over the last 52 weeks,
/// sessions by weekday and by hour, totals per period, and the streaks with the timeline of their runs. A
/// chart whose statistic failed says so.
///
/// ```swift
/// let html = HTMLReportRenderer().render(report)
/// try html.write(to: URL(fileURLWithPath: "report.html"), atomically: true, encoding: .utf8)
/// ```
public struct HTMLReportRenderer: ReportRenderer {
    public let format = ReportFormat.html

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
        html += page.entries(.calendar).map { heatmapPanel(page, $0) }.joined()
        let pair = page.entries(.byWeekday).map { weekdayPanel(page, $0) } + page.entries(.byHour).map { hourPanel(page, $0) }
        if !pair.isEmpty { html += "<div class=\"pair\">\n" + pair.joined() + "</div>\n" }
        html += page.entries(.byPeriod).map { periodPanel(page, $0) }.joined()
        html += streakPanel(page)
        html += "<footer>Made with Stillpoint · this page is self-contained and works offline</footer>\n"
        html += "</main>\n</body>\n</html>\n"
        return html
    }

    /// What the sections share: the report and its day.
    struct Page {
        var report: Report
        var today: LocalDay

        init(report: Report) {
            self.report = report
            // Days start at midnight here: the manifest's day_starts_at is not part of a report, and at worst
            // the heatmap shows one empty day more.
            today = DayBoundary(timeZone: report.timeZone).day(of: report.asOf)
        }

        /// The entries shown as `presentation`, in manifest order.
        func entries(_ presentation: StatisticPresentation) -> [ReportEntry] {
            report.entries.filter { $0.presentation == presentation }
        }

        /// The value of the first finished entry shown as `presentation`, which other charts read: the week's
        /// first day from a table by weekday, the active days from a calendar.
        func value(_ presentation: StatisticPresentation) -> StatisticValue? {
            for entry in entries(presentation) {
                if case .finished(let result) = entry.outcome { return result.value }
            }
            return nil
        }

        /// The value an entry's chart draws when its statistic finished.
        static func value(_ entry: ReportEntry) -> StatisticValue? {
            if case .finished(let result) = entry.outcome { return result.value }
            return nil
        }

        /// Why a chart has nothing to draw when its statistic did not finish.
        static func missing(_ entry: ReportEntry) -> String? {
            switch entry.outcome {
            case .failed(let message): "\(entry.name) failed: \(message)"
            case .cancelled, .waiting, .running: "\(entry.name) was cancelled."
            case .finished: nil
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
