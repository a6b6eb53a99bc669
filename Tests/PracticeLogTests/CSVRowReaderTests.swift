import Foundation
import Testing
@testable import PracticeLog

@Suite("CSV row reader")
struct CSVRowReaderTests {
    /// Hands out the bytes of `data` in blocks of `size`, to cross block boundaries in small tests.
    final class BlockSource: ByteChunkSource {
        private let data: [UInt8]
        private let size: Int
        private var offset = 0

        init(_ text: String, size: Int = 7) {
            data = Array(text.utf8)
            self.size = size
        }

        func nextChunk() throws -> [UInt8]? {
            guard offset < data.count else { return nil }
            defer { offset += size }
            return Array(data[offset..<min(offset + size, data.count)])
        }
    }

    static func rows(_ text: String) throws -> [CSVRow] {
        let reader = CSVRowReader(cursor: ByteCursor(source: BlockSource(text)))
        var rows: [CSVRow] = []
        while let row = try reader.nextRow() { rows.append(row) }
        return rows
    }

    @Test("a quote never closed throws with the line where it opened, not the line the file ends on")
    func unclosedQuote() throws {
        let reader = CSVRowReader(cursor: ByteCursor(source: BlockSource("a,b\n1,2\n3,\"x\ny\nz\n")))
        #expect(try reader.nextRow()?.fields == ["a", "b"])
        #expect(try reader.nextRow()?.fields == ["1", "2"])
        let error = try #require(throws: MalformedInput.self) { try reader.nextRow() }
        #expect(error.line == 3)
        #expect(error.reason == "the quoted field opened on this line is never closed, so no row from here on could be read")
    }

    @Test("closed quotes across lines and blocks still read as one field")
    func closedQuotes() throws {
        let rows = try Self.rows("a,\"b\n\"\"c\"\"\",d\n\"e\"x,f\n")
        #expect(rows.map(\.fields) == [["a", "b\n\"c\"", "d"], ["ex", "f"]])
        #expect(rows.map(\.line) == [1, 3])
        #expect(rows[1].problem == "unexpected text after the closing quote of field 1")
    }

    @Test("a row over 1 MiB throws at its line, unquoted or quoted")
    func tooLong() throws {
        let long = String(repeating: "x", count: CSVRowReader.maxRowBytes + 1)
        let unquoted = try #require(throws: MalformedInput.self) { try Self.rows("a\nb\n" + long + "\nc\n") }
        #expect(unquoted.line == 3)
        #expect(unquoted.reason.hasPrefix("the row on this line is longer than 1 MiB, the limit for one record"))
        let quoted = try #require(throws: MalformedInput.self) { try Self.rows("a\n\"\n\n" + long + "\"\nc\n") }
        #expect(quoted.line == 2)
        #expect(quoted.reason.contains("closing quote missing"))
        // Just under the limit is a row like any other.
        let fits = String(repeating: "x", count: CSVRowReader.maxRowBytes - 1)
        #expect(try Self.rows(fits + "\nc\n").map(\.line) == [1, 2])
    }
}
