import StillpointManifest
import StillpointStatistics

/// The report as Markdown: a table of every statistic, then a section with a sub-table for each statistic
/// whose value is a record or a list (by weekday, by hour, best streaks, ...).
///
/// ```swift
/// try MarkdownReportRenderer().render(report).write(to: URL(fileURLWithPath: "report.md"), atomically: true, encoding: .utf8)
/// // # Practice report
/// //
/// // | Statistic | Value | Notes |
/// // | --- | --- | --- |
/// // | Total time | 103h 20m | |
/// ```
public struct MarkdownReportRenderer: ReportRenderer {
    public let format = ReportFormat.markdown

    public init() {}

    public func render(_ report: Report) -> String {
        var output = "# Practice report\n\nAs of \(Self.escape(ValueText.asOf(report))).\n\n"
        if let notice = report.notice { output += "> **Note:** \(Self.escape(notice))\n\n" }
        output += "| Statistic | Value | Notes |\n| --- | --- | --- |\n"
        var sections: [(title: String, value: StatisticValue, presentation: StatisticPresentation)] = []
        for entry in report.entries {
            let text: String
            var notes: [String] = []
            if case .finished(let result) = entry.outcome {
                notes = result.notes
                if let inline = ValueText.inline(result.value, presentation: entry.presentation) {
                    text = inline
                } else {
                    text = "see below"
                    sections.append((entry.label, result.value, entry.presentation))
                }
            } else {
                text = ValueText.status(entry.outcome)
            }
            output += Self.row([entry.label, text, notes.joined(separator: "; ")])
        }
        for section in sections {
            output += "\n## \(Self.escape(section.title))\n\n"
            output += Self.block(section.value, presentation: section.presentation, level: 3)
        }
        return output
    }

    /// The tables of a record or list: one table when its items share their fields, a key-value table when
    /// they are plain values, and a sub-heading per field when they nest deeper (`by_kind`).
    private static func block(_ value: StatisticValue, presentation: StatisticPresentation, level: Int) -> String {
        switch value {
        case .record(let fields):
            if let columns = sharedColumns(fields.map(\.value)) {
                let header = [""] + columns.map { ValueText.label(forKey: $0) }
                return table(header: header, rows: fields.map { field in
                    [ValueText.label(forKey: field.key, presentation: presentation)] + cells(field.value, columns)
                })
            }
            if fields.allSatisfy({ ValueText.inline($0.value) != nil }) {
                return table(header: ["", "Value"], rows: fields.map { field in
                    [ValueText.label(forKey: field.key, presentation: presentation), ValueText.inline(field.value) ?? ""]
                })
            }
            return fields.map { field in
                let heading = String(repeating: "#", count: min(level, 6)) + " " + escape(ValueText.label(forKey: field.key))
                let body = ValueText.inline(field.value).map { escape($0) + "\n" }
                    ?? block(field.value, presentation: presentation, level: level + 1)
                return heading + "\n\n" + body
            }.joined(separator: "\n")
        case .list(let items):
            // Runs of days are listed in date order: numbering them would make "1" read as the best.
            if !items.isEmpty, items.allSatisfy({ ValueText.streak($0) != nil }) {
                return table(header: ["Run", "Length"], rows: ValueText.listEntries(items).map { [$0.key, $0.text ?? ""] })
            }
            if let columns = sharedColumns(items) {
                return table(header: ["#"] + columns.map { ValueText.label(forKey: $0) },
                             rows: items.enumerated().map { ["\($0.offset + 1)"] + cells($0.element, columns) })
            }
            return items.map { "- " + escape(ValueText.summary($0)) + "\n" }.joined()
        default:
            return escape(ValueText.inline(value) ?? ValueText.noValue) + "\n"
        }
    }

    /// The field names that every item has, in the same order, when every item is a record of plain values.
    private static func sharedColumns(_ items: [StatisticValue]) -> [String]? {
        var columns: [String]?
        for item in items {
            guard case .record(let fields) = item, !fields.isEmpty,
                  fields.allSatisfy({ ValueText.isScalar($0.value) }) else { return nil }
            let keys = fields.map(\.key)
            if let columns, columns != keys { return nil }
            columns = keys
        }
        return columns
    }

    private static func cells(_ value: StatisticValue, _ columns: [String]) -> [String] {
        columns.map { value[$0].flatMap(ValueText.inline) ?? ValueText.noValue }
    }

    private static func table(header: [String], rows: [[String]]) -> String {
        row(header) + "|" + String(repeating: " --- |", count: header.count) + "\n" + rows.map(row).joined()
    }

    private static func row(_ cells: [String]) -> String {
        "|" + cells.map { $0.isEmpty ? " |" : " \(escape($0)) |" }.joined() + "\n"
    }

    /// Text that Markdown shows as written: pipes would end a cell, `` ` ``, `*`, `[` and `]` start code,
    /// emphasis or a link, `<` would start HTML, and control characters and line breaks (which would end a row)
    /// are shown escaped as ``ValueText/visible(_:keepingLineBreaks:)`` writes them, with their backslash escaped.
    /// Underscores stay: in names (`days_since_last_yoga`) they sit inside words, where they are no emphasis.
    ///
    /// ```swift
    /// MarkdownReportRenderer.escape("a|b\n[c](d)")   // #"a\|b\\n\[c\](d)"#, which renders as a|b\n[c](d)
    /// ```
    static func escape(_ text: String) -> String {
        var result = ""
        for character in ValueText.visible(text) {
            switch character {
            case "|", "\\", "`", "*", "[", "]": result += "\\" + String(character)
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            default: result.append(character)
            }
        }
        return result
    }
}
