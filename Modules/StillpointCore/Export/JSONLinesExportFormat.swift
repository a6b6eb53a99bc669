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
public struct JSONLinesExportFormat: ExportFormat, ExportRowEncoding, Hashable {
    public static let identifier = "json_lines"

    public init() {}

    public func header(columns: [String]) -> String? { nil }

    public func appendRow(_ values: [AttributeValue], columns: [String], to output: inout String) {
        var bytes: [UInt8] = []
        var encoder = JSONLinesRowEncoder(columns: columns)
        encoder.append(ExportValueRow(values: values), to: &bytes)
        output += String(decoding: bytes, as: UTF8.self)
    }

    func makeRowEncoder(columns: [String]) -> ExportEncoder {
        .jsonLines(JSONLinesRowEncoder(columns: columns))
    }
}
