import StillpointManifest
import StillpointStatistics

/// The report as RFC 4180 CSV for spreadsheets: a header `name,id,status,value,unit`, then one row per
/// scalar value, records and lists flattened to rows named `name.key.subkey` (list items numbered from 1).
///
/// Every statistic has at least one row: an empty record or list, or no value, gives an empty `value`; a
/// failed statistic puts its error message in `value`. Lines end with CRLF, as the RFC says, and a row is
/// always one line (``quoted(_:)``).
///
/// ```swift
/// print(CSVReportRenderer().render(report), terminator: "")
/// // name,id,status,value,unit
/// // total_time,total_time,ok,5400,seconds
/// // sessions_by_weekday.monday.count,sessions_by_weekday,ok,3,count
/// ```
public struct CSVReportRenderer: ReportRenderer {
    public let format = ReportFormat.csv

    public init() {}

    public func render(_ report: Report) -> String {
        var output = Self.line(["name", "id", "status", "value", "unit"])
        if let notice = report.notice { output += Self.line(["notice", "", "note", notice, ""]) }
        for entry in report.entries {
            let status = MachineText.status(entry.outcome)
            switch entry.outcome {
            case .finished(let result):
                var rows: [(name: String, value: StatisticValue)] = []
                Self.flatten(result.value, name: entry.name, into: &rows)
                if rows.isEmpty { rows = [(entry.name, .none)] }
                for row in rows {
                    output += Self.line([row.name, entry.id, status, MachineText.cell(row.value),
                                         MachineText.unit(row.value)?.rawValue ?? ""])
                }
            case .failed(let message):
                output += Self.line([entry.name, entry.id, status, message, ""])
            default:
                output += Self.line([entry.name, entry.id, status, "", ""])
            }
        }
        return output
    }

    /// The scalar values of `value`, each with its dotted name.
    private static func flatten(_ value: StatisticValue, name: String, into rows: inout [(name: String, value: StatisticValue)]) {
        switch value {
        case .record(let fields):
            for field in fields { flatten(field.value, name: name + "." + field.key, into: &rows) }
        case .list(let items):
            for (offset, item) in items.enumerated() { flatten(item, name: name + ".\(offset + 1)", into: &rows) }
        default:
            rows.append((name, value))
        }
    }

    private static func line(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",") + "\r\n"
    }

    /// A field as RFC 4180 writes it: in double quotes, doubled inside, when it holds a comma or a quote; as is
    /// otherwise. Text from outside (file names in `by_import`, kinds, error messages) is made safe first: its
    /// control characters and line breaks are shown escaped (``ValueText/visible(_:keepingLineBreaks:)``), so a
    /// row is one line, and a field that is not a number but starts with `=`, `+`, `-` or `@` is prefixed with
    /// `'`, so that a spreadsheet shows it as text instead of running it as a formula.
    ///
    /// ```swift
    /// CSVReportRenderer.quoted("=1+2")    // "'=1+2"
    /// CSVReportRenderer.quoted("-5400")   // "-5400"
    /// ```
    static func quoted(_ field: String) -> String {
        var text = ValueText.visible(field)
        if let first = text.first, "=+-@".contains(first), Double(text) == nil { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
