import Foundation

/// One value of an exported row, as a format writes it: text is borrowed UTF-8, so reading a row from the
/// cursor makes no `String` and no ``AttributeValue``.
///
/// ```swift
/// row.withField(at: 2) { field in
///     switch field {
///     case .text(let bytes): appendQuotedIfNeeded(bytes)
///     case .integer(let number): ExportText.appendDecimal(number, to: &buffer)
///     default: ...
///     }
/// }
/// ```
///
/// A field lives as long as the row it was read from: `.text` points into the store's copy of the column (SQLite's
/// statement, libpq's result), which the cursor's next step frees.
package enum ExportField {
    case null
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    /// Seconds since 1970, as the store's `Date` gives them back.
    case date(Double)
    /// UTF-8 text, borrowed for the row.
    case text(UnsafeBufferPointer<UInt8>)
    /// A value without a fast form (UUIDs, binary data): written through ``ExportText/plain(_:)``.
    case value(AttributeValue)
}
