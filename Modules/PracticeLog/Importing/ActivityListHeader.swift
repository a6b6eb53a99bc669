import Foundation

/// Opens an activity list CSV and finds its columns by name, for ``GarminImporter`` and ``StravaImporter``.
enum ActivityListHeader {
    /// The rows after the header, and where the columns are.
    ///
    /// - Throws: ``ImportFormatError`` naming the first column missing; ``ImportReadError`` when the file
    ///   cannot be read.
    static func read(url: URL, format: String, type: String, date: String, duration: String, name: String,
                     suggestion: String) throws -> (CSVRowReader, ActivityListEventSource.Columns) {
        let rows = CSVRowReader(cursor: ByteCursor(source: try FileChunkSource(url: url)))
        let header: CSVRow?
        do {
            header = try rows.nextRow()
        } catch {
            throw ImportReadError.wrapping(error, path: url.path, line: rows.line)
        }
        let wanted = [type, date, duration].map { "'\($0)'" }.joined(separator: ", ")
        guard let header else {
            throw ImportFormatError(path: url.path, format: format, expected: "a header with the columns \(wanted)",
                                    found: "an empty file", suggestion: suggestion)
        }
        switch ActivityListEventSource.Columns.find(in: header.fields, type: type, date: date, duration: duration, name: name) {
        case .success(let columns):
            return (rows, columns)
        case .failure(let missing):
            throw ImportFormatError(
                path: url.path, format: format, expected: "a header with the columns \(wanted)",
                found: "no column '\(missing.name)' in \(ImportIssue.quoted(header.fields.joined(separator: ","), limit: 80))",
                suggestion: suggestion)
        }
    }
}
