import Foundation
import StillpointCore
@testable import StillpointPostgres
import Testing

/// A scan reads numbers straight from libpq's bytes; they must be the numbers ``PostgresValueText`` makes of the
/// same text, the way every other read of the store takes them.
struct PostgresNumberTextTests {
    static let texts = ["0", "-0", "7", "-12", "1789000000", "999999999999999", "-999999999999999", "1000000000000000",
                        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "1.5", "-0.25", "1e+20",
                        "1.7976931348623157e+308", "NaN", "Infinity", "-Infinity", "", "-", "yoga", "12a", " 12", "0x10"]

    private func read<T>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        Array(text.utf8).withUnsafeBufferPointer(body)
    }

    @Test(arguments: texts)
    func aDoubleReadInPlaceIsTheValueTextsDouble(_ text: String) {
        let expected = PostgresValueText.value(text, as: .double).numericValue
        let read = read(text) { PostgresNumberText.double($0) }
        #expect(read == expected || (read?.isNaN == true && expected?.isNaN == true), "\(text)")
    }

    @Test(arguments: texts)
    func anIntegerReadInPlaceIsTheValueTextsInteger(_ text: String) {
        let expected: Int64? = if case .integer(let value) = PostgresValueText.value(text, as: .integer) { value } else { nil }
        #expect(read(text) { PostgresNumberText.integer($0) } == expected, "\(text)")
    }

    @Test(arguments: texts + ["t", "true", "f", "false"])
    func aBooleanReadInPlaceIsTheValueTextsBoolean(_ text: String) {
        #expect(.bool(read(text) { PostgresNumberText.bool($0) }) == PostgresValueText.value(text, as: .bool), "\(text)")
    }
}
