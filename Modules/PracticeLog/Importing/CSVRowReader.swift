/// One row of a CSV file: its fields, the line it starts on, and what was wrong with it, if anything.
struct CSVRow {
    var fields: [String]
    var line: Int
    var problem: String?
}

/// Splits a byte stream into RFC 4180 rows: quoted fields may hold delimiters, doubled quotes and line
/// breaks; rows end with CRLF, LF or CR. Line numbers count physical lines, so a row after a quoted
/// multi-line field still reports the line it is on in an editor.
///
/// Two faults stop the reading with a ``MalformedInput`` instead of skipping a row, because after them no
/// row boundary can be trusted and skipping would lose every row that follows without a word:
/// - a quoted field that is never closed: the error names the line where the quote opened;
/// - a row longer than ``maxRowBytes`` (1 MiB), such as a binary file or `/dev/zero`.
///
/// ```swift
/// let rows = CSVRowReader(cursor: ByteCursor(source: try FileChunkSource(url: url)))
/// while let row = try rows.nextRow() { print(row.line, row.fields) }   // throws MalformedInput
/// ```
final class CSVRowReader {
    /// The longest row read, ``ImportLimits/maxRecordBytes``; a longer one stops the reading.
    static let maxRowBytes = ImportLimits.maxRecordBytes

    private enum State {
        case fieldStart, unquoted, quoted, quoteInQuoted, afterQuoted
    }

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    private let cursor: ByteCursor
    private let delimiter: UInt8
    /// The physical line of the next unread byte.
    private(set) var line = 1
    private var atStartOfFile = true
    /// A row ended with CR: a following LF belongs to the same line break.
    private var skipLineFeed = false
    private var field: [UInt8] = []

    var peakBufferedBytes: Int { cursor.peakBufferedBytes }

    init(cursor: ByteCursor, delimiter: UInt8 = UInt8(ascii: ",")) {
        self.cursor = cursor
        self.delimiter = delimiter
    }

    /// The next non-blank row, or `nil` at the end of the input.
    ///
    /// - Throws: ``MalformedInput`` for a quote never closed or a row over ``maxRowBytes``; the reader
    ///   must not be used after that.
    func nextRow() throws -> CSVRow? {
        if atStartOfFile {
            atStartOfFile = false
            // Spreadsheets often write a UTF-8 byte order mark; it is not part of the first header name.
            if try cursor.hasPrefix([0xEF, 0xBB, 0xBF]) { cursor.index += 3 }
        }
        while true {
            guard let row = try readRow() else { return nil }
            let isBlank = row.fields.count == 1 && row.fields[0].isEmpty && row.problem == nil
            if !isBlank { return row }
        }
    }

    private func readRow() throws -> CSVRow? {
        let delimiter = self.delimiter
        let quote = Self.quote, lineFeed = Self.lineFeed, carriageReturn = Self.carriageReturn
        var fields: [String] = []
        var state = State.fieldStart
        var rowLine = line
        /// The line where the quoted field being read opened.
        var quoteLine = line
        var rowBytes = 0
        var problem: String?
        var lastWasCarriageReturn = false
        var startedRow = false
        field.removeAll(keepingCapacity: true)

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }

        while true {
            guard try cursor.ensure() else {
                // End of input.
                guard startedRow else { return nil }
                if state == .quoted {
                    throw MalformedInput(
                        line: quoteLine,
                        reason: "the quoted field opened on this line is never closed, so no row from here on could be read",
                        suggestion: "Close the quote (a quote inside a quoted field is written twice: \"\") "
                            + "and import the file again.")
                }
                endField()
                return CSVRow(fields: fields, line: rowLine, problem: problem)
            }
            let bytes = cursor.bytes
            var index = cursor.index
            let end = bytes.count
            if skipLineFeed {
                skipLineFeed = false
                if bytes[index] == lineFeed {
                    index += 1
                    cursor.index = index
                    continue
                }
            }
            if !startedRow {
                startedRow = true
                rowLine = line
            }
            let scanStart = index
            var rowEnded = false
            scan: while index < end {
                let byte = bytes[index]
                switch state {
                case .fieldStart, .unquoted, .afterQuoted:
                    if byte == lineFeed || byte == carriageReturn {
                        index += 1
                        line += 1
                        skipLineFeed = byte == carriageReturn
                        rowEnded = true
                        break scan
                    }
                    if byte == delimiter {
                        endField()
                        state = .fieldStart
                        index += 1
                    } else if byte == quote && state == .fieldStart {
                        state = .quoted
                        quoteLine = line
                        index += 1
                    } else {
                        if state == .afterQuoted && problem == nil {
                            problem = "unexpected text after the closing quote of field \(fields.count + 1)"
                        }
                        if state == .fieldStart { state = .unquoted }
                        // Copies the run up to the next special byte at once.
                        var runEnd = index + 1
                        while runEnd < end {
                            let next = bytes[runEnd]
                            if next == delimiter || next == lineFeed || next == carriageReturn || next == quote { break }
                            runEnd += 1
                        }
                        field.append(contentsOf: bytes[index..<runEnd])
                        index = runEnd
                    }
                case .quoted:
                    if byte == quote {
                        state = .quoteInQuoted
                    } else {
                        if byte == carriageReturn || (byte == lineFeed && !lastWasCarriageReturn) { line += 1 }
                        lastWasCarriageReturn = byte == carriageReturn
                        field.append(byte)
                    }
                    index += 1
                case .quoteInQuoted:
                    if byte == quote {
                        field.append(quote)
                        state = .quoted
                        lastWasCarriageReturn = false
                        index += 1
                    } else {
                        // The quote closed the field; look at this byte again as plain text.
                        state = .afterQuoted
                    }
                }
                // Every byte of the row counts, delimiters too, so a line of commas is bounded as well.
                if rowBytes + (index - scanStart) > Self.maxRowBytes { break scan }
            }
            rowBytes += index - scanStart
            cursor.index = index
            if rowEnded {
                endField()
                return CSVRow(fields: fields, line: rowLine, problem: problem)
            }
            if rowBytes > Self.maxRowBytes {
                let inQuote = state == .quoted || state == .quoteInQuoted
                throw MalformedInput.tooLarge(
                    line: inQuote ? quoteLine : rowLine,
                    what: inQuote ? "the quoted field opened on this line" : "the row on this line",
                    hint: inQuote ? " (is its closing quote missing?); no row from here on could be read"
                        : "; no row from here on could be read")
            }
        }
    }
}
