import Foundation

/// The text of attribute values in exports, written as UTF-8 bytes: numbers as Swift prints them (the shortest
/// form that reads back the same), dates in ISO 8601 (see ``ExportDateWriter``), UUIDs upper-case, binary
/// values in Base64.
///
/// ```swift
/// var bytes: [UInt8] = []
/// ExportText.appendDecimal(-42, to: &bytes)              // "-42"
/// ExportText.iso8601(Date(timeIntervalSince1970: 0.25))  // "1970-01-01T00:00:00.250Z"
/// ```
enum ExportText {
    /// The text of a value, as a `String`: for the values without a byte form of their own (UUIDs, binary).
    static func plain(_ value: AttributeValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let number): return String(number)
        case .double(let number): return number.description
        case .string(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .date(let date): return iso8601(date)
        case .uuid(let uuid): return uuid.uuidString
        case .binary(let data): return data.base64EncodedString()
        }
    }

    /// `2024-03-05T07:30:00Z`, with milliseconds (`07:30:00.250Z`) when the date has a fraction of a second.
    static func iso8601(_ date: Date) -> String {
        var bytes: [UInt8] = []
        var writer = ExportDateWriter()
        writer.append(secondsSince1970: date.timeIntervalSince1970, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a field that needs no quoting or escaping in any format: a number, a flag, a date, a UUID,
    /// Base64. Text and missing values are the format's business, and append nothing here.
    static func appendPlain(_ field: ExportField, dates: inout ExportDateWriter, to buffer: inout [UInt8]) {
        switch field {
        case .null, .text: return
        case .integer(let number): appendDecimal(number, to: &buffer)
        case .double(let number): buffer.append(contentsOf: number.description.utf8)  // a small string: no allocation
        case .bool(let flag): buffer.append(contentsOf: flag ? trueBytes : falseBytes)
        case .date(let seconds): dates.append(secondsSince1970: seconds, to: &buffer)
        case .value(let value): buffer.append(contentsOf: plain(value).utf8)
        }
    }

    private static let trueBytes: [UInt8] = Array("true".utf8)
    private static let falseBytes: [UInt8] = Array("false".utf8)

    /// The decimal digits of `value`, with a minus sign when it is negative.
    static func appendDecimal(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, minimumWidth: 1, to: &buffer)
    }

    /// The decimal digits of `value`, zero-padded on the left to `minimumWidth` (at most 20).
    static func appendDigits(_ value: UInt64, minimumWidth: Int, to buffer: inout [UInt8]) {
        // Written right to left into 20 bytes on the stack (UInt64.max has 20 digits), then copied once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            var rest = value
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            while 20 - start < minimumWidth {
                start -= 1
                digits[start] = UInt8(ascii: "0")
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }
}
