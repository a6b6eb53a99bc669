/// Attribute values in memory as an exported row: what ``ExportFormat/appendRow(_:columns:to:)`` hands the
/// built-in formats' encoders.
struct ExportValueRow: ExportRow {
    let values: [AttributeValue]

    var count: Int { values.count }

    func value(at index: Int) -> AttributeValue {
        values[index]
    }

    func withField<T>(at index: Int, _ body: (ExportField) -> T) -> T {
        switch values[index] {
        case .null: return body(.null)
        case .integer(let number): return body(.integer(number))
        case .double(let number): return body(.double(number))
        case .bool(let flag): return body(.bool(flag))
        case .date(let date): return body(.date(date.timeIntervalSince1970))
        case .string(var text): return text.withUTF8 { body(.text($0)) }
        case .uuid, .binary: return body(.value(values[index]))
        }
    }
}
