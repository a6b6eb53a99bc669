/// Numbers read from the text PostgreSQL's text protocol sends, straight from libpq's bytes: the common forms
/// (an integer, `-12`, `1789000000`) without making a `String`, anything else (`1.5`, `1e+20`, `NaN`) through
/// ``PostgresValueText``'s own reading, so that both give the same value.
///
/// ```swift
/// PostgresNumberText.double(bytes)    // 1789000000.0 for "1789000000", 0.25 for "0.25", nil for "yoga"
/// ```
enum PostgresNumberText {
    /// The integer the bytes spell, `nil` when they spell none.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        if let small = smallInteger(bytes) { return small }
        return Int64(String(decoding: bytes, as: UTF8.self))
    }

    /// The double the bytes spell (`NaN` and the infinities by PostgreSQL's names), `nil` when they spell none.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        // Up to 15 digits an integer is a double exactly: no rounding to agree on.
        if let small = smallInteger(bytes) { return Double(small) }
        return PostgresValueText.double(String(decoding: bytes, as: UTF8.self))
    }

    /// A boolean column as ``PostgresValueText/value(_:as:)`` reads it: an integer other than 0, `t` or `true`.
    static func bool(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let integer = integer(bytes) { return integer != 0 }
        return bytes.elementsEqual("t".utf8) || bytes.elementsEqual("true".utf8)
    }

    /// An optional `-` and 1 to 15 decimal digits, nothing else; `nil` for any other text.
    private static func smallInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        let digits = bytes.count - index
        guard digits > 0, digits <= 15 else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int64(digit)
            index += 1
        }
        return negative ? -value : value
    }
}
