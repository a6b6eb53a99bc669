import Foundation
import GRDBSQLite

extension ExportSuite {
    /// The baseline: what a hand-written exporter over the SQLite C API does. One cursor over the rows in row-id
    /// order, each field formatted straight into a byte buffer, written with `write(2)` every 256 KiB, then
    /// `fsync`, and a rename of the temporary file over the destination: the same file, made the same way, as
    /// `ExportOperation` with `.csv` writes.
    enum RawCSVExport {
        private static let flushThreshold = 1 << 18
        private static let sql = #"SELECT "start", "duration", "kind", "key" FROM "LoggedSession" ORDER BY "_id" ASC"#

        /// Writes every row of the `LoggedSession` table to `url` and returns the number of rows.
        static func write(from raw: RawSQLite, to url: URL) throws -> Int {
            let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw SessionBench.Failure("cannot create \(temporary.path): errno \(errno)") }
            var isOpen = true
            defer {
                if isOpen {
                    close(descriptor)
                    unlink(temporary.path)
                }
            }
            var buffer: [UInt8] = []
            buffer.reserveCapacity(flushThreshold + 4_096)
            func flush() throws {
                try buffer.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                        guard written > 0 else { throw SessionBench.Failure("cannot write \(temporary.path): errno \(errno)") }
                        offset += written
                    }
                }
                buffer.removeAll(keepingCapacity: true)
            }

            buffer.append(contentsOf: "start,duration,kind,key\r\n".utf8)
            let statement = try raw.prepare(sql)
            defer { sqlite3_finalize(statement) }
            var rows = 0
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { throw raw.failure(sql) }
                if sqlite3_column_type(statement, 0) != SQLITE_NULL {
                    appendISO8601(sqlite3_column_double(statement, 0), to: &buffer)
                }
                buffer.append(UInt8(ascii: ","))
                if sqlite3_column_type(statement, 1) != SQLITE_NULL {
                    buffer.append(contentsOf: sqlite3_column_double(statement, 1).description.utf8)
                }
                buffer.append(UInt8(ascii: ","))
                appendText(column: 2, of: statement, to: &buffer)
                buffer.append(UInt8(ascii: ","))
                appendText(column: 3, of: statement, to: &buffer)
                buffer.append(UInt8(ascii: "\r"))
                buffer.append(UInt8(ascii: "\n"))
                rows += 1
                if buffer.count >= flushThreshold { try flush() }
            }
            try flush()
            guard fsync(descriptor) == 0 else { throw SessionBench.Failure("cannot fsync \(temporary.path): errno \(errno)") }
            close(descriptor)
            isOpen = false
            guard rename(temporary.path, url.path) == 0 else {
                unlink(temporary.path)
                throw SessionBench.Failure("cannot rename \(temporary.path) to \(url.path): errno \(errno)")
            }
            return rows
        }

        /// A text column as an RFC 4180 field: quoted (quotes doubled) when it holds a comma, a quote, a line
        /// break, or a space at either end; a NULL is an empty field.
        private static func appendText(column: Int32, of statement: OpaquePointer, to buffer: inout [UInt8]) {
            guard let text = sqlite3_column_text(statement, column) else { return }
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column)))
            guard let first = bytes.first, let last = bytes.last else { return }
            var needsQuotes = first == UInt8(ascii: " ") || last == UInt8(ascii: " ")
            if !needsQuotes {
                for byte in bytes where byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || (byte >= 0x0A && byte <= 0x0D) {
                    needsQuotes = true
                    break
                }
            }
            guard needsQuotes else {
                buffer.append(contentsOf: bytes)
                return
            }
            buffer.append(UInt8(ascii: "\""))
            for byte in bytes {
                buffer.append(byte)
                if byte == UInt8(ascii: "\"") { buffer.append(byte) }
            }
            buffer.append(UInt8(ascii: "\""))
        }

        /// `2024-03-05T07:30:00Z`, or `07:30:00.250Z` when the instant has a fraction of a second, in UTC.
        private static func appendISO8601(_ secondsSince1970: Double, to buffer: inout [UInt8]) {
            let totalMilliseconds = Int64((secondsSince1970 * 1_000).rounded())
            let (seconds, millisecond) = floorDivision(totalMilliseconds, 1_000)
            let (days, secondOfDay) = floorDivision(seconds, 86_400)
            // Howard Hinnant's civil_from_days.
            let shifted = days + 719_468
            let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
            let dayOfEra = shifted - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let monthIndex = (5 * dayOfYear + 2) / 153
            let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
            let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
            let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
            appendDigits(year, width: 4, to: &buffer)
            buffer.append(UInt8(ascii: "-"))
            appendDigits(month, width: 2, to: &buffer)
            buffer.append(UInt8(ascii: "-"))
            appendDigits(day, width: 2, to: &buffer)
            buffer.append(UInt8(ascii: "T"))
            appendDigits(secondOfDay / 3_600, width: 2, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            appendDigits(secondOfDay / 60 % 60, width: 2, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            appendDigits(secondOfDay % 60, width: 2, to: &buffer)
            if millisecond != 0 {
                buffer.append(UInt8(ascii: "."))
                appendDigits(millisecond, width: 3, to: &buffer)
            }
            buffer.append(UInt8(ascii: "Z"))
        }

        private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
            let remainder = value % divisor
            return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
        }

        /// The decimal digits of `value`, zero-padded to `width`.
        private static func appendDigits(_ value: Int64, width: Int, to buffer: inout [UInt8]) {
            if value < 0 { buffer.append(UInt8(ascii: "-")) }
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                         UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            var rest = value.magnitude
            withUnsafeMutableBytes(of: &digits) { digits in
                repeat {
                    digits[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    count += 1
                } while rest > 0
                for _ in count..<max(count, width) { buffer.append(UInt8(ascii: "0")) }
                for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(digits[index]) }
            }
        }
    }
}
