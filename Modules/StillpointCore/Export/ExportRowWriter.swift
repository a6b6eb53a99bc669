/// Where a store's export cursor puts its rows: each row is encoded into a buffer that goes to the file every
/// 256 KiB, and every `step` rows the export checks for cancellation and reports progress.
///
/// A concrete type with a generic ``append(_:)``: a store calls it with its own row type and the compiler
/// specializes the whole encoding for that type (SQLite's ``ExportCursorRow`` costs what it did before PostgreSQL's
/// rows came along).
///
/// ```swift
/// var rows = try ExportRowWriter(format: .csv, columns: ["uid", "title"], file: file, step: 1_000) { _ in }
/// try reader.exportRows(request, columns: ["uid", "title"], types: [.integer, .string], to: &rows)
/// let written = try rows.commit()
/// ```
package struct ExportRowWriter {
    private var encoder: ExportEncoder
    private var bytes = ExportFile.makeBuffer()
    private let file: ExportFile
    private let step: Int
    private let checkpoint: (_ written: Int) throws -> Void
    /// The rows appended so far.
    package private(set) var written = 0

    /// Starts the file with the format's header; `checkpoint` runs after every `step` rows and may throw to stop.
    init(format: any ExportFormat, columns: [String], file: ExportFile, step: Int, checkpoint: @escaping (_ written: Int) throws -> Void) {
        encoder = ExportEncoder(format, columns: columns)
        self.file = file
        self.step = max(1, step)
        self.checkpoint = checkpoint
        if let header = format.header(columns: columns) { bytes.append(contentsOf: header.utf8) }
    }

    /// Encodes one row and writes the buffer out once it is full.
    @inline(__always)
    package mutating func append<Row: ExportRow>(_ row: Row) throws {
        encoder.append(row, to: &bytes)
        try file.writeIfFull(&bytes)
        written += 1
        if written % step == 0 { try checkpoint(written) }
    }

    /// Writes what is left and puts the file in place; returns the number of rows.
    mutating func commit() throws -> Int {
        try file.commit(&bytes)
        return written
    }
}
