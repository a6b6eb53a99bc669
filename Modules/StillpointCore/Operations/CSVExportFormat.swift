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
public struct CSVExportFormat: ExportFormat, Hashable {
    public static let identifier = "csv"

    /// The field separator.
    public var delimiter: Character
    /// The line ending: CRLF, as the RFC asks, unless told otherwise.
    public var lineEnding: String

    public init(delimiter: Character = ",", lineEnding: String = "\r\n") {
        precondition(delimiter != "\"" && !delimiter.isNewline, "a CSV delimiter cannot be a quote or a line break")
        self.delimiter = delimiter
        self.lineEnding = lineEnding
    }

    public func header(columns: [String]) -> String? {
        var line = ""
        for (index, column) in columns.enumerated() {
            if index > 0 { line.append(delimiter) }
            appendField(column, to: &line)
        }
        line += lineEnding
        return line
    }

    public func appendRow(_ values: [AttributeValue], columns: [String], to output: inout String) {
        for (index, value) in values.enumerated() {
            if index > 0 { output.append(delimiter) }
            switch value {
            case .null: break
            case .string(let text): appendField(text, to: &output)
            default: output += ExportText.plain(value)  // numbers, dates, UUIDs and Base64 never need quotes
            }
        }
        output += lineEnding
    }

    private func appendField(_ text: String, to output: inout String) {
        guard needsQuotes(text) else {
            output += text
            return
        }
        output.append("\"")
        output += text.replacingOccurrences(of: "\"", with: "\"\"")
        output.append("\"")
    }

    private func needsQuotes(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return false }
        // Spreadsheets trim unquoted spaces at the edges; quoting keeps them.
        if first == " " || last == " " { return true }
        for character in text where character == delimiter || character == "\"" || character.isNewline {
            return true
        }
        return false
    }
}
