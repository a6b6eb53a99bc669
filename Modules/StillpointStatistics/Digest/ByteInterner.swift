import Foundation

/// Small numbers for the few distinct texts of a column (kinds, sources, zones), found from the store's bytes
/// without making a string per row. Number 0 stands for no value (null).
///
/// Texts are told apart by their bytes, as the store's `GROUP BY` and `=` tell them apart. A number is 16 bits (a
/// digest holds one per session and column): a column of more than ``capacity`` texts is refused, not wrapped.
package struct ByteInterner: Sendable {
    /// A text's number.
    package typealias Number = UInt16
    /// The most texts numbered, null aside.
    package static let capacity = Int(Number.max)
    /// The column's name, for the error that says it holds too many texts.
    let column: String

    /// The texts by number; `names[0]` is the empty text that stands for null.
    package private(set) var names: [String] = [""]
    private var bytes: [[UInt8]] = [[]]
    private var numbers: [[UInt8]: Number] = [:]
    private var lastNumber: Number = 0

    /// Numbers the texts of the column named `column`.
    init(column: String) {
        self.column = column
    }

    /// The number of the text whose bytes are `buffer`, `nil` for null; a new text gets the next number.
    ///
    /// - Throws: ``DigestColumnsError/tooManyTexts(column:)`` for a new text past ``capacity``.
    mutating func number(of buffer: UnsafeRawBufferPointer?) throws(DigestColumnsError) -> Number {
        guard let buffer else { return 0 }
        // Consecutive rows often share a value; then a short list; then a table.
        if lastNumber != 0, Self.equal(bytes[Int(lastNumber)], buffer) { return lastNumber }
        if bytes.count <= 16 {
            for number in 1..<bytes.count where Self.equal(bytes[number], buffer) {
                lastNumber = Number(truncatingIfNeeded: number)  // below 17: the short list
                return lastNumber
            }
        } else if let known = numbers[Array(buffer)] {
            lastNumber = known
            return known
        }
        return try add(Array(buffer))
    }

    /// Whether `known` holds the bytes of `buffer`: one `memcmp`, where a generic comparison went byte by byte.
    private static func equal(_ known: [UInt8], _ buffer: UnsafeRawBufferPointer) -> Bool {
        known.count == buffer.count && known.withUnsafeBytes { known in
            guard let first = known.baseAddress, let second = buffer.baseAddress else { return known.count == 0 }
            return memcmp(first, second, known.count) == 0
        }
    }

    /// The number of `text`, given as a string (a value read one at a time).
    mutating func number(of text: String?) throws(DigestColumnsError) -> Number {
        guard let text else { return 0 }
        return try Array(text.utf8).withUnsafeBytes { bytes in
            Result { () throws(DigestColumnsError) -> Number in try number(of: bytes) }
        }.get()
    }

    /// The number `text` already has, if any, without adding it.
    func existingNumber(of text: String) -> Number? {
        let utf8 = Array(text.utf8)
        return bytes.indices.dropFirst().first { bytes[$0] == utf8 }.flatMap { Number(exactly: $0) }
    }

    /// For each number, whether its text is one of `texts` (every number when `texts` is `nil`; null never is
    /// one): `kind IN (...)` over the numbers, comparing bytes as the store does.
    func admitted(by texts: [String]?) -> [Bool] {
        guard let texts else { return Array(repeating: true, count: names.count) }
        let wanted = Set(texts.map { Array($0.utf8) })
        return bytes.indices.map { $0 != 0 && wanted.contains(bytes[$0]) }
    }

    private mutating func add(_ utf8: [UInt8]) throws(DigestColumnsError) -> Number {
        guard let number = Number(exactly: bytes.count) else { throw .tooManyTexts(column: column) }
        bytes.append(utf8)
        names.append(String(decoding: utf8, as: UTF8.self))
        numbers[utf8] = number
        lastNumber = number
        return number
    }

    /// Whether text `first` sorts before text `second` byte by byte, as the store's `ORDER BY` sorts them; null first.
    package func precedes(_ first: Number, _ second: Number) -> Bool {
        if first == 0 || second == 0 { return first == 0 && second != 0 }
        return bytes[Int(first)].lexicographicallyPrecedes(bytes[Int(second)])
    }
}
