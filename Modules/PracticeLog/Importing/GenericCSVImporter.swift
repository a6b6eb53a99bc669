import Foundation

/// Reads any spreadsheet of sessions saved as CSV: a header row, then one session a row.
///
/// Columns are found by their header name, ignoring case and surrounding spaces. Dates are ISO 8601 unless
/// ``dateFormat`` gives a `DateFormatter` pattern. A date with an offset is that instant, and the session
/// carries the offset as its zone (`GMT+0200`); a date without one is read in ``timeZone`` when given, and
/// otherwise kept as the wall-clock time the person saw (zone `Etc/UTC`, see ``WallClockTime``).
///
/// A bad row is skipped as an issue with its line. A quoted field whose quote is never closed is not: it
/// would swallow every row after it, so the reader yields the rows before it and then throws an
/// ``ImportDataError`` naming the line where the quote opened (no recovery is attempted, since a quoted
/// field may hold line breaks and nothing after the quote can be trusted to start a row). A row over
/// ``ImportLimits/maxRecordBytes`` (1 MiB) stops the reading the same way. Sessions outside ``ImportLimits``
/// are skipped with their line.
///
/// ```swift
/// let importer = GenericCSVImporter(startColumn: "Date", duration: .minutes("Minutes"),
///                                   kindColumn: "Type", dateFormat: "dd.MM.yyyy HH:mm",
///                                   timeZone: TimeZone(identifier: "Europe/Vienna"), delimiter: ";")
/// let reader = try importer.makeRecordReader(url: url)
/// ```
public struct GenericCSVImporter: SessionImporter {
    public static let id = "csv"

    /// Where a row's duration comes from.
    public enum DurationColumn: Sendable, Hashable {
        /// A number of seconds, such as `1500` or `12.5`.
        case seconds(String)
        /// A number of minutes, such as `25` or `12.5`.
        case minutes(String)
        /// `H:M:S`, such as `0:25:0` or `1:05:30`.
        case hoursMinutesSeconds(String)
        /// An end date-time in the same format as the start; the duration is the difference.
        case end(String)

        var column: String {
            switch self {
            case .seconds(let name), .minutes(let name), .hoursMinutesSeconds(let name), .end(let name): name
            }
        }
    }

    /// The header of the start date-time column.
    public var startColumn: String
    /// The duration column and how to read it.
    public var duration: DurationColumn
    /// The header of the kind column; without one, every session is ``defaultKind``.
    public var kindColumn: String?
    /// The header of a column of free text, kept as the record's note.
    public var noteColumn: String?
    /// A `DateFormatter` pattern (read with the `en_US_POSIX` locale), or `nil` for ISO 8601.
    public var dateFormat: String?
    /// The zone of dates written without an offset, which the records then carry; `nil` keeps them as the
    /// wall-clock times the person saw.
    public var timeZone: TimeZone?
    /// The kind of a session whose kind cell is empty or absent.
    public var defaultKind: String
    /// The records' source, part of their key: give each spreadsheet its own name.
    public var source: String
    /// The field separator: `,` or, as many European spreadsheets write, `;` (or a tab).
    public var delimiter: Unicode.Scalar
    /// The header of a column naming each row's practitioner by id (a bulk load of many people); a row whose cell
    /// is empty or not a valid id (``Practitioners/problem(withID:)``) is skipped with its line and the column.
    public var practitionerColumn: String?
    /// The home time zones of the practitioners the practitioner column names, by id: a row's times without an offset
    /// are read in its practitioner's zone when ``timeZone`` is `nil` (``withHomeTimeZones(_:)``).
    public var homeTimeZones: [String: TimeZone] = [:]

    /// Columns `start` and `duration` (seconds), ISO 8601 dates in UTC, kind `meditation`.
    public init() {
        self.init(startColumn: "start", duration: .seconds("duration"))
    }

    public init(
        startColumn: String,
        duration: DurationColumn,
        kindColumn: String? = nil,
        noteColumn: String? = nil,
        dateFormat: String? = nil,
        timeZone: TimeZone? = nil,
        defaultKind: String = "meditation",
        source: String = "csv",
        delimiter: Unicode.Scalar = ",",
        practitionerColumn: String? = nil
    ) {
        self.practitionerColumn = practitionerColumn
        self.startColumn = startColumn
        self.duration = duration
        self.kindColumn = kindColumn
        self.noteColumn = noteColumn
        self.dateFormat = dateFormat
        self.timeZone = timeZone
        self.defaultKind = defaultKind
        self.source = source
        self.delimiter = delimiter
    }

    public func makeRecordReader(url: URL) throws -> SessionRecordReader {
        guard delimiter.isASCII, delimiter != "\"", delimiter != "\n", delimiter != "\r" else {
            throw ImportFormatError(
                path: url.path, format: "a CSV file", expected: "a one-byte delimiter such as ',' or ';'",
                found: "the delimiter '\(delimiter)'", suggestion: "Choose ',', ';' or a tab as the delimiter.")
        }
        let rows = CSVRowReader(cursor: ByteCursor(source: try FileChunkSource(url: url)),
                                delimiter: UInt8(delimiter.value))  // swiftlint:disable:this integer_conversion: an ASCII delimiter, checked above
        let header: CSVRow?
        do {
            header = try rows.nextRow()
        } catch {
            throw ImportReadError.wrapping(error, path: url.path, line: rows.line)
        }
        guard let header else {
            throw formatError(url, found: "an empty file")
        }
        let names = header.fields.map { Self.columnKey($0) }
        func index(of column: String) throws -> Int {
            guard let index = names.firstIndex(of: Self.columnKey(column)) else {
                let shown = header.fields.prefix(12).map { ImportIssue.quoted($0) }
                let found = shown.joined(separator: ", ") + (header.fields.count > 12 ? ", …" : "")
                throw formatError(url, found: "no column named '\(column)' among \(found)")
            }
            return index
        }
        let columns = GenericCSVEventSource.Columns(
            count: header.fields.count,
            start: try index(of: startColumn),
            duration: try index(of: duration.column),
            kind: try kindColumn.map(index(of:)),
            note: try noteColumn.map(index(of:)),
            practitioner: try practitionerColumn.map(index(of:)))
        return SessionRecordReader(url: url, source: GenericCSVEventSource(rows: rows, columns: columns, options: self),
                                   timeRule: timeRule)
    }

    /// This importer reading the times without an offset of each row in the home time zone of its practitioner;
    /// `nil` when it was given a zone of its own or has no practitioner column.
    ///
    /// ```swift
    /// let importer = GenericCSVImporter(startColumn: "start", duration: .seconds("duration"), practitionerColumn: "user")
    ///     .withHomeTimeZones(["alice": berlin])
    /// ```
    public func withHomeTimeZones(_ zones: [String: TimeZone]) -> (any SessionImporter)? {
        guard timeZone == nil, practitionerColumn != nil else { return nil }
        var importer = self
        importer.homeTimeZones = zones
        return importer
    }

    /// The line the import prints about how it reads the file's times.
    var timeRule: String {
        if let dateFormat, GenericCSVEventSource.hasZoneField(dateFormat) {
            let days = timeZone.map { "counted in \($0.identifier) (--time-zone)" } ?? "counted in the report's zone"
            return "csv times carry their zone (date format \(dateFormat)): days and hours are \(days)"
        }
        if let timeZone {
            return "csv times without an offset are read as wall-clock times in \(timeZone.identifier) (--time-zone); "
                + "times with an offset are kept as written"
        }
        return "csv times without an offset are read as the wall-clock times you saw (--time-zone Europe/Berlin "
            + "to give their zone); times with an offset keep it"
    }

    private func formatError(_ url: URL, found: String) -> ImportFormatError {
        let wanted = [startColumn, duration.column] + [kindColumn, noteColumn, practitionerColumn].compactMap { $0 }
        return ImportFormatError(
            path: url.path, format: "a CSV file of sessions",
            expected: "a header row with the columns \(wanted.map { "'\($0)'" }.joined(separator: ", "))",
            found: found,
            suggestion: "Name the columns of your file in the import options, or add a header row.")
    }

    /// Header names compare without case and surrounding spaces: spreadsheets are not careful about either.
    static func columnKey(_ name: String) -> String {
        name.trimmed().lowercased()
    }
}

extension SessionImporter where Self == GenericCSVImporter {
    /// A CSV file with the columns `start` and `duration` (seconds) and ISO 8601 dates.
    public static var csv: GenericCSVImporter { GenericCSVImporter() }

    /// A CSV file with the given column mapping and date format.
    public static func csv(
        startColumn: String,
        duration: GenericCSVImporter.DurationColumn,
        kindColumn: String? = nil,
        noteColumn: String? = nil,
        dateFormat: String? = nil,
        timeZone: TimeZone? = nil,
        defaultKind: String = "meditation",
        source: String = "csv",
        delimiter: Unicode.Scalar = ","
    ) -> GenericCSVImporter {
        GenericCSVImporter(startColumn: startColumn, duration: duration, kindColumn: kindColumn,
                           noteColumn: noteColumn, dateFormat: dateFormat, timeZone: timeZone,
                           defaultKind: defaultKind, source: source, delimiter: delimiter)
    }
}
