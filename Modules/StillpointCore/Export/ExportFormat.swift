/// How an ``ExportOperation`` writes rows: a header, then one line per row.
///
/// Built-in formats: ``CSVExportFormat`` (`.csv`) and ``JSONLinesExportFormat`` (`.jsonLines`). Dates are
/// written in ISO 8601 (UTC), binary values in Base64, UUIDs in their usual text form.
///
/// ```swift
/// ExportOperation(FetchRequest(Item.self), format: .csv, to: url)
/// ExportOperation(FetchRequest(Item.self), format: .jsonLines, to: url)
/// ExportOperation(FetchRequest(Item.self), format: .csv(delimiter: ";"), to: url)
/// ```
///
/// A format is called from the export's background context, so it is `Sendable` and should keep no
/// state between rows.
public protocol ExportFormat: Sendable {
    /// A stable identifier for manifests and logs, in `snake_case`: `csv`, `json_lines`.
    static var identifier: String { get }

    /// The text before the first row (a header row, with its line ending), or `nil` for none.
    func header(columns: [String]) -> String?

    /// Appends one row, with its line ending: `values[i]` is the value of `columns[i]`.
    func appendRow(_ values: [AttributeValue], columns: [String], to output: inout String)
    /// Why the format cannot write a file that reads back (a CSV delimiter that is a quote), or `nil`: an export
    /// with such a format fails with it before writing anything.
    var configurationProblem: String? { get }
}

extension ExportFormat {
    public var configurationProblem: String? { nil }
}

extension ExportFormat where Self == CSVExportFormat {
    /// CSV as RFC 4180 describes it: a header row, commas, CRLF line endings, quoting where needed.
    public static var csv: CSVExportFormat { CSVExportFormat() }

    /// CSV with another delimiter (`;` or a tab, as many spreadsheets expect) or line ending.
    public static func csv(delimiter: Character = ",", lineEnding: String = "\r\n") -> CSVExportFormat {
        CSVExportFormat(delimiter: delimiter, lineEnding: lineEnding)
    }
}

extension ExportFormat where Self == JSONLinesExportFormat {
    /// One JSON object per line, with the columns as keys in their order.
    public static var jsonLines: JSONLinesExportFormat { JSONLinesExportFormat() }
}
