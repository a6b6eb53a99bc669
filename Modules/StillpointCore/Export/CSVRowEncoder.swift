/// Writes CSV rows for a ``CSVExportFormat`` as UTF-8 bytes, the export's hot loop.
///
/// A text field is quoted when it holds the delimiter, a double quote, a line break (`\n`, `\r`, a vertical
/// tab, a form feed, U+0085, U+2028 or U+2029), or a space at either end. The check scans bytes, where every
/// one of those is found without decoding: ASCII bytes never occur inside a multi-byte UTF-8 sequence.
///
/// ```swift
/// var encoder = CSVRowEncoder(CSVExportFormat())
/// var bytes: [UInt8] = []
/// encoder.append(ExportValueRow(values: [.integer(1), .string("a, b")]), to: &bytes)   // 1,"a, b"\r\n
/// ```
struct CSVRowEncoder: ExportRowEncoder {
    private let delimiter: [UInt8]
    private let lineEnding: [UInt8]
    private var dates = ExportDateWriter()

    init(_ format: CSVExportFormat) {
        delimiter = Array(String(format.delimiter).utf8)
        lineEnding = Array(format.lineEnding.utf8)
    }

    /// Appends one record, with its line ending.
    mutating func append<Row: ExportRow>(_ row: Row, to buffer: inout [UInt8]) {
        for index in 0..<row.count {
            if index > 0 { appendDelimiter(to: &buffer) }
            row.withField(at: index) { field in
                if case .text(let text) = field {
                    appendField(text, to: &buffer)
                } else {
                    ExportText.appendPlain(field, dates: &dates, to: &buffer)  // never needs quotes
                }
            }
        }
        buffer.append(contentsOf: lineEnding)
    }

    /// Appends the header record: the column names, quoted where needed.
    func appendHeader(_ columns: [String], to buffer: inout [UInt8]) {
        for (index, column) in columns.enumerated() {
            if index > 0 { appendDelimiter(to: &buffer) }
            var name = column
            name.withUTF8 { appendField($0, to: &buffer) }
        }
        buffer.append(contentsOf: lineEnding)
    }

    private func appendDelimiter(to buffer: inout [UInt8]) {
        if delimiter.count == 1 {
            buffer.append(delimiter[0])
        } else {
            buffer.append(contentsOf: delimiter)
        }
    }

    /// Appends text as a field: as it is, or quoted with its quotes doubled.
    func appendField(_ text: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        guard needsQuotes(text) else {
            buffer.append(contentsOf: text)
            return
        }
        buffer.append(UInt8(ascii: "\""))
        var start = 0
        for index in text.indices where text[index] == UInt8(ascii: "\"") {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...index]))
            buffer.append(UInt8(ascii: "\""))
            start = index + 1
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
        buffer.append(UInt8(ascii: "\""))
    }

    func needsQuotes(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = text.first, let last = text.last else { return false }
        // Spreadsheets trim unquoted spaces at the edges; quoting keeps them.
        if first == UInt8(ascii: " ") || last == UInt8(ascii: " ") { return true }
        let delimiterLead = delimiter[0]
        var index = 0
        while index < text.count {
            let byte = text[index]
            switch byte {
            case UInt8(ascii: "\""), 0x0A...0x0D:
                return true
            case 0xC2:  // U+0085, NEXT LINE, is C2 85
                if index + 1 < text.count, text[index + 1] == 0x85 { return true }
            case 0xE2:  // U+2028 and U+2029, the line and paragraph separators, are E2 80 A8 and E2 80 A9
                if index + 2 < text.count, text[index + 1] == 0x80, text[index + 2] == 0xA8 || text[index + 2] == 0xA9 { return true }
            default:
                break
            }
            if byte == delimiterLead, hasDelimiter(in: text, at: index) { return true }
            index += 1
        }
        return false
    }

    private func hasDelimiter(in text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        guard delimiter.count > 1 else { return true }
        guard index + delimiter.count <= text.count else { return false }
        for offset in 1..<delimiter.count where text[index + offset] != delimiter[offset] { return false }
        return true
    }
}
