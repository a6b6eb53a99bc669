/// Writes JSON Lines rows for a ``JSONLinesExportFormat`` as UTF-8 bytes, each column's key prepared once.
///
/// ```swift
/// var encoder = JSONLinesRowEncoder(columns: ["uid", "title"])
/// var bytes: [UInt8] = []
/// encoder.append(ExportValueRow(values: [.integer(1), .string("a \"b\"")]), to: &bytes)   // {"uid":1,"title":"a \"b\""}\n
/// ```
struct JSONLinesRowEncoder: ExportRowEncoder {
    /// `"name":` for each column.
    private let keys: [[UInt8]]
    private var dates = ExportDateWriter()

    init(columns: [String]) {
        keys = columns.map { column in
            var bytes: [UInt8] = []
            var name = column
            name.withUTF8 { Self.appendString($0, to: &bytes) }
            bytes.append(UInt8(ascii: ":"))
            return bytes
        }
    }

    /// Appends one object, with its line ending.
    mutating func append<Row: ExportRow>(_ row: Row, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
        for index in 0..<row.count {
            if index > 0 { buffer.append(UInt8(ascii: ",")) }
            buffer.append(contentsOf: keys[index])
            row.withField(at: index) { field in
                switch field {
                case .null:
                    buffer.append(contentsOf: Self.null)
                case .double(let number) where !number.isFinite:
                    buffer.append(contentsOf: Self.null)
                case .integer, .double, .bool:
                    ExportText.appendPlain(field, dates: &dates, to: &buffer)
                case .text(let text):
                    Self.appendString(text, to: &buffer)
                case .date, .value:
                    // ISO 8601, a UUID, Base64: nothing in them needs escaping.
                    buffer.append(UInt8(ascii: "\""))
                    ExportText.appendPlain(field, dates: &dates, to: &buffer)
                    buffer.append(UInt8(ascii: "\""))
                }
            }
        }
        buffer.append(UInt8(ascii: "}"))
        buffer.append(UInt8(ascii: "\n"))
    }

    private static let null: [UInt8] = Array("null".utf8)

    /// Appends `text` as a JSON string literal, escaping what RFC 8259 requires; runs that need no escape are
    /// copied whole.
    static func appendString(_ text: UnsafeBufferPointer<UInt8>, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var start = 0
        for index in text.indices {
            let byte = text[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index]))
            start = index + 1
            buffer.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): buffer.append(byte)
            case UInt8(ascii: "\n"): buffer.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): buffer.append(UInt8(ascii: "r"))
            case UInt8(ascii: "\t"): buffer.append(UInt8(ascii: "t"))
            default:
                // \u00XX, lower-case hex.
                buffer.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                           hexDigit(byte >> 4), hexDigit(byte & 0xF)])
            }
        }
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
        buffer.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
