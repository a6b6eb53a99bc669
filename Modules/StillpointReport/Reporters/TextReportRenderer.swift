import StillpointManifest
import StillpointStatistics

/// The final summary table for a terminal or a text file: one line per statistic in human units, records
/// as indented sub-lines, notes beneath their statistic.
///
/// ```swift
/// print(TextReportRenderer().render(report), terminator: "")
/// // Practice report, as of 2024-03-15 12:00 (UTC)
/// //
/// // Sessions                 412
/// // Total time               103h 20m
/// // Sessions by weekday
/// //   Monday                 60 sessions · 15h
/// ```
public struct TextReportRenderer: ReportRenderer {
    public let format = ReportFormat.text

    /// The widest the label column grows; longer labels push their value further right.
    public var maximumLabelWidth: Int

    public init(maximumLabelWidth: Int = 32) {
        self.maximumLabelWidth = maximumLabelWidth
    }

    public func render(_ report: Report) -> String {
        // Labels and values may hold text from outside (file names, kinds, a manifest's names): each shows on
        // its own line, whatever it holds.
        let lines = report.entries.flatMap(self.lines).map { line in
            Line(label: ValueText.visible(line.label), text: line.text.map { ValueText.visible($0) })
        }
        let width = min(maximumLabelWidth, lines.filter { $0.text != nil }.map { $0.label.count }.max() ?? 0)
        var output = "Practice report, as of \(ValueText.asOf(report))\n"
            + (report.notice.map { "Note: \(ValueText.visible($0))\n" } ?? "") + "\n"
        for line in lines {
            guard let text = line.text else { output += line.label + "\n"; continue }
            let padding = String(repeating: " ", count: max(0, width - line.label.count))
            output += line.label + padding + "  " + text + "\n"
        }
        return output
    }

    /// A line of the table: a label and its value; notes and headings of sub-tables have no value.
    private struct Line {
        var label: String
        var text: String?
    }

    private func lines(of entry: ReportEntry) -> [Line] {
        guard case .finished(let result) = entry.outcome else {
            return [Line(label: entry.label, text: ValueText.status(entry.outcome))]
        }
        var lines: [Line]
        if let text = ValueText.inline(result.value, presentation: entry.presentation) {
            lines = [Line(label: entry.label, text: text)]
        } else {
            lines = [Line(label: entry.label, text: nil)]
            lines += ValueText.rows(of: result.value, presentation: entry.presentation).map { row in
                Line(label: String(repeating: "  ", count: row.depth + 1) + row.key, text: row.text)
            }
        }
        lines += result.notes.map { Line(label: "  note: " + $0, text: nil) }
        return lines
    }
}
