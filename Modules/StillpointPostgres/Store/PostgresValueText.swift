import Foundation
import StillpointCore

/// Attribute values as PostgreSQL's text protocol carries them, in the storage convention SQLite's store uses:
/// dates are seconds since 1970 (`double precision`), booleans 0 or 1 (`bigint`), UUIDs their uppercase string,
/// binary data `bytea` in hex (`\x0aff`); a NaN is `NULL` and -0 is 0, as SQLite stores them.
///
/// ```swift
/// PostgresValueText.text(.date(Date(timeIntervalSince1970: 90)))   // "90.0"
/// PostgresValueText.value("1", as: .bool)                          // .bool(true)
/// ```
package enum PostgresValueText {
    /// The parameter text of `value`; `nil` is SQL `NULL`.
    package static func text(_ value: AttributeValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let value): return String(value)
        case .double(let value): return doubleText(value)
        case .bool(let value): return value ? "1" : "0"
        case .date(let value): return doubleText(value.timeIntervalSince1970)
        case .string(let value): return value
        case .uuid(let value): return value.uuidString
        case .binary(let value):
            var text = "\\x"
            text.reserveCapacity(2 + value.count * 2)
            for byte in value {
                text.append(hexDigits[Int(byte >> 4)])
                text.append(hexDigits[Int(byte & 0x0F)])
            }
            return text
        }
    }

    /// A column's text read back as an attribute of `type`; `nil` for SQL `NULL`. `type` `nil` (an expression
    /// of no declared type) reads numbers as numbers and anything else as text.
    package static func value(_ text: String?, as type: AttributeType?) -> AttributeValue {
        guard let text else { return .null }
        switch type {
        case .integer:
            // An aggregate such as AVG may give a fraction where the column holds integers.
            if let integer = Int64(text) { return .integer(integer) }
            return double(text).map(AttributeValue.double) ?? .string(text)
        case .bool:
            if let integer = Int64(text) { return .bool(integer != 0) }
            return .bool(text == "t" || text == "true")
        case .double: return double(text).map(AttributeValue.double) ?? .string(text)
        case .date: return double(text).map { .date(Date(timeIntervalSince1970: $0)) } ?? .string(text)
        case .string: return .string(text)
        case .uuid: return UUID(uuidString: text).map(AttributeValue.uuid) ?? .string(text)
        case .binary: return .binary(bytes(text))
        case nil:
            if let integer = Int64(text) { return .integer(integer) }
            return double(text).map(AttributeValue.double) ?? .string(text)
        }
    }

    private static let hexDigits = Array("0123456789abcdef")

    /// Swift's shortest text that reads back as the same double, with PostgreSQL's names for infinities; `nil`
    /// (`NULL`) for NaN and 0 for -0, as SQLite stores them, so that both stores hand back the same values.
    private static func doubleText(_ value: Double) -> String? {
        if value.isNaN { return nil }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == 0 { return "0" }
        return value.description
    }

    /// A double column's text: PostgreSQL's names for NaN and the infinities, else Swift's reading.
    static func double(_ text: String) -> Double? {
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default: return Double(text)
        }
    }

    /// `bytea` in hex output (`\x0aff`); anything else is kept as its bytes.
    private static func bytes(_ text: String) -> Data {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == 0x5C, utf8[1] == 0x78, utf8.count % 2 == 0 else { return Data(utf8) }
        var data = Data(capacity: (utf8.count - 2) / 2)
        var index = 2
        while index + 1 < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return Data(utf8) }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x61...0x66: return byte - 0x61 + 10
        case 0x41...0x46: return byte - 0x41 + 10
        default: return nil
        }
    }
}
