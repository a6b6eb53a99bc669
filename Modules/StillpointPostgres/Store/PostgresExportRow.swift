import Foundation
import StillpointCore

/// One row of a chunk an export's cursor fetched, read column by column from libpq's result as SQLite's
/// ``ExportCursorRow`` reads its statement: text stays in libpq's buffer, numbers are parsed in place, and every
/// field comes out as the same ``ExportField`` SQLite's store gives for the same stored value.
struct PostgresExportRow: ExportRow {
    let result: PostgresResult
    let row: Int
    /// The attribute types of the selected columns, in order.
    let types: ContiguousArray<AttributeType>

    var count: Int { types.count }

    func value(at index: Int) -> AttributeValue {
        PostgresValueText.value(result.text(row: row, column: index), as: types[index])
    }

    func withField<T>(at index: Int, _ body: (ExportField) -> T) -> T {
        guard let text = result.cString(row: row, column: index) else { return body(.null) }
        switch types[index] {
        case .integer:
            return body(.integer(strtoll(text, nil, 10)))
        case .bool:
            return body(.bool(strtoll(text, nil, 10) != 0))
        case .double:
            // The server writes the shortest text that reads back as the stored double (and NaN, Infinity,
            // -Infinity, which strtod reads too), so this is the double SQLite would hand out.
            return body(.double(strtod(text, nil)))
        case .date:
            // Through `Date`, as SQLite's export row and a fetched object's value go, so the last bit rounds the same way.
            return body(.date(Date(timeIntervalSince1970: strtod(text, nil)).timeIntervalSince1970))
        case .string:
            return body(.text(result.bytes(row: row, column: index) ?? UnsafeBufferPointer(start: nil, count: 0)))
        case .uuid, .binary:
            return body(.value(value(at: index)))
        }
    }
}
