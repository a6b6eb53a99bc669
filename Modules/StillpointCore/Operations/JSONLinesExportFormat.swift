import Foundation

/// JSON Lines: one JSON object per row and line, keys in the order of the columns.
///
/// Numbers stay numbers (a non-finite double becomes `null`), dates are ISO 8601 strings, binary values
/// Base64 strings, a missing value `null`.
///
/// ```swift
/// let export = ExportOperation(FetchRequest(Item.self), columns: ["uid", "title"], format: .jsonLines, to: url)
/// // {"uid":1,"title":"Breath"}
/// ```
public struct JSONLinesExportFormat: ExportFormat, Hashable {
    public static let identifier = "json_lines"

    public init() {}

    public func header(columns: [String]) -> String? { nil }

    public func appendRow(_ values: [AttributeValue], columns: [String], to output: inout String) {
        output.append("{")
        for (index, value) in values.enumerated() {
            if index > 0 { output.append(",") }
            Self.appendString(columns[index], to: &output)
            output.append(":")
            switch value {
            case .null:
                output += "null"
            case .integer, .bool:
                output += ExportText.plain(value)
            case .double(let number):
                output += number.isFinite ? ExportText.plain(value) : "null"
            case .string(let text):
                Self.appendString(text, to: &output)
            case .date, .uuid, .binary:
                Self.appendString(ExportText.plain(value), to: &output)
            }
        }
        output += "}\n"
    }

    /// Appends `text` as a JSON string literal, escaping what RFC 8259 requires.
    static func appendString(_ text: String, to output: inout String) {
        output.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        output.append("\"")
    }
}
