import Foundation

/// CSV as RFC 4180 describes it: a header row with the column names, then one record per row.
///
/// A field is quoted when it holds the delimiter, a double quote, a line break, or leading or trailing
/// spaces; quotes inside it are doubled. A missing value is an empty field.
///
/// ```swift
/// let export = ExportOperation(FetchRequest(Item.self), columns: ["uid", "title"], format: .csv, to: url)
/// // uid,title
/// // 1,"Breath, then ""stillness"""
/// ```
public struct CSVExportFormat: ExportFormat, ExportRowEncoding, Hashable {
    public static let identifier = "csv"

    /// The field separator.
    public var delimiter: Character
    /// The line ending: CRLF, as the RFC asks, unless told otherwise.
    public var lineEnding: String

    /// A delimiter that is a quote or a line break makes a format whose exports fail (``configurationProblem``).
    public init(delimiter: Character = ",", lineEnding: String = "\r\n") {
        self.delimiter = delimiter
        self.lineEnding = lineEnding
    }

    public var configurationProblem: String? {
        guard delimiter == "\"" || delimiter.isNewline else { return nil }
        return "a CSV delimiter cannot be a quote or a line break; choose another, such as ';' or a tab"
    }

    public func header(columns: [String]) -> String? {
        var bytes: [UInt8] = []
        CSVRowEncoder(self).appendHeader(columns, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    public func appendRow(_ values: [AttributeValue], columns: [String], to output: inout String) {
        var bytes: [UInt8] = []
        var encoder = CSVRowEncoder(self)
        encoder.append(ExportValueRow(values: values), to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    func makeRowEncoder(columns: [String]) -> ExportEncoder {
        .csv(CSVRowEncoder(self))
    }
}
