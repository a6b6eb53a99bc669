import Foundation

/// Writes the objects a request matches to a file, as CSV or JSON Lines, streaming through a cursor so that
/// memory stays flat whatever the number of rows. Its result is the number of rows written.
///
/// Rows are read as the chosen columns only and written as bytes, with no object made: the built-in formats
/// write straight from the cursor into a buffer that goes to the file every 256 KiB.
///
/// ```swift
/// var request = FetchRequest(Session.self, predicate: try FetchPredicate("kind == %@", "yoga"))
/// request.sortKeys = [.ascending("start")]
/// let export = ExportOperation(request, columns: ["start", "duration", "kind"], format: .csv, to: url)
/// queue.addOperation(export)
/// let rows = try await export.value
/// ```
///
/// The rows go to a temporary file beside `url`, renamed over it at the end: a cancelled or failed export
/// leaves no partial file (and an existing file at `url` untouched). Only saved objects are exported.
public final class ExportOperation: ContextOperation<Int>, @unchecked Sendable {
    /// The entity, predicate and order of the rows (and a limit or offset, if set).
    public let request: FetchRequest
    /// The attributes written, in order; `nil` means all of them, in the entity's order.
    public let columns: [String]?
    public let format: any ExportFormat
    /// Where the file ends up.
    public let url: URL

    /// - Parameters:
    ///   - request: what to export, in which order; cancellation and progress are checked every
    ///     `request.batchSize` rows.
    ///   - columns: the attributes to write (a whitelist, in order); `nil` for every attribute.
    ///   - format: `.csv`, `.jsonLines`, or another ``ExportFormat``.
    ///   - url: the destination file, replaced if it exists.
    public init<Format: ExportFormat>(_ request: FetchRequest, columns: [String]? = nil, format: Format, to url: URL,
                                      identifier: String? = nil, priority: OperationPriority = .normal,
                                      context: ObjectContext? = nil) {
        self.request = request
        self.columns = columns
        self.format = format
        self.url = url
        super.init(identifier: identifier, priority: priority, context: context)
    }

    public override func main(context: isolated ObjectContext) async throws -> Int {
        let entity = request.entity
        let columns = self.columns ?? entity.attributes.map(\.name)
        // Checked before the file exists: a misspelt column or sort key fails with the entity's nearest name.
        let types = ContiguousArray(try columns.map { entity.attributes[try entity.position(of: $0)].type })
        for key in request.sortKeys { _ = try entity.position(of: key.attribute) }
        var counted = request
        counted.includesPendingChanges = false  // the cursor reads saved rows only
        let total = try context.count(for: counted)
        reportProgress(completed: 0, of: total, message: "exporting \(total) \(entity.name) rows")

        // The selected columns only, straight from a cursor into bytes: no object, no String per row.
        let graph = context.graph
        let file = try ExportFile(destination: url)
        var bytes = ExportFile.makeBuffer()
        if let header = format.header(columns: columns) { bytes.append(contentsOf: header.utf8) }
        let writeRow = rowWriter(columns: columns)
        let step = max(1, request.batchSize)
        var written = 0
        try graph.withReader { reader in
            try reader.forEachExportRow(request, columns: columns, types: types) { row in
                writeRow(row, &bytes)
                try file.writeIfFull(&bytes)
                written += 1
                if written % step == 0 {
                    try self.checkCancellation()
                    self.reportProgress(completed: written, of: total)
                }
            }
        }
        try checkCancellation()
        try file.commit(&bytes)
        reportProgress(completed: written, of: total, message: "wrote \(written) rows to \(url.lastPathComponent)")
        return written
    }

    /// Appends one row to the bytes: through the format's byte encoder when it has one (the built-in formats),
    /// otherwise as the row's values through ``ExportFormat/appendRow(_:columns:to:)``.
    private func rowWriter(columns: [String]) -> (ExportCursorRow, inout [UInt8]) -> Void {
        if let encoding = format as? any ExportRowEncoding {
            var encoder = encoding.makeRowEncoder(columns: columns)
            return { row, bytes in encoder.appendRow(row, to: &bytes) }
        }
        let format = self.format
        var values: [AttributeValue] = []
        var text = ""
        return { row, bytes in
            values.removeAll(keepingCapacity: true)
            for index in 0..<row.count {
                values.append(row.value(at: index))
            }
            text.removeAll(keepingCapacity: true)
            format.appendRow(values, columns: columns, to: &text)
            bytes.append(contentsOf: text.utf8)
        }
    }
}
