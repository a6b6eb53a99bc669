/// One row of a CSV file: its fields, the line it starts on, and what was wrong with it, if anything.
struct CSVRow {
    var fields: [String]
    var line: Int
    var problem: String?
}

/// Splits a byte stream into RFC 4180 rows: quoted fields may hold delimiters, doubled quotes and line
/// breaks; rows end with CRLF, LF or CR. Line numbers count physical lines, so a row after a quoted
/// multi-line field still reports the line it is on in an editor.
final class CSVRowReader {
    /// A row longer than this is reported and skipped, so an unclosed quote can't swallow a whole file.
    static let maxRowBytes = 1 << 20

    private enum State {
        case fieldStart, unquoted, quoted, quoteInQuoted, afterQuoted, discarding
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
                    problem = problem ?? "a quoted field is not closed before the end of the file"
                }
                if state != .discarding { endField() }
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
            var rowEnded = false
            scan: while index < end {
                let byte = bytes[index]
                switch state {
                case .fieldStart, .unquoted, .afterQuoted, .discarding:
                    if byte == lineFeed || byte == carriageReturn {
                        index += 1
                        line += 1
                        skipLineFeed = byte == carriageReturn
                        rowEnded = true
                        break scan
                    }
                    if state == .discarding {
                        index += 1
                    } else if byte == delimiter {
                        endField()
                        state = .fieldStart
                        index += 1
                    } else if byte == quote && state == .fieldStart {
                        state = .quoted
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
                        rowBytes += runEnd - index
                        index = runEnd
                    }
                case .quoted:
                    if byte == quote {
                        state = .quoteInQuoted
                    } else {
                        if byte == carriageReturn || (byte == lineFeed && !lastWasCarriageReturn) { line += 1 }
                        lastWasCarriageReturn = byte == carriageReturn
                        field.append(byte)
                        rowBytes += 1
                    }
                    index += 1
                case .quoteInQuoted:
                    if byte == quote {
                        field.append(quote)
                        rowBytes += 1
                        state = .quoted
                        lastWasCarriageReturn = false
                        index += 1
                    } else {
                        // The quote closed the field; look at this byte again as plain text.
                        state = .afterQuoted
                    }
                }
                if rowBytes > Self.maxRowBytes && state != .discarding {
                    problem = "the row is longer than 1 MiB (is a quote not closed?); the rest of it was skipped"
                    state = .discarding
                    fields.removeAll()
                    field.removeAll(keepingCapacity: false)
                }
            }
            cursor.index = index
            if rowEnded {
                if state != .discarding { endField() }
                return CSVRow(fields: fields, line: rowLine, problem: problem)
            }
        }
    }
}
