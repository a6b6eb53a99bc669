import Foundation

/// Writes the objects a request matches to a file, as CSV or JSON Lines, streaming through a cursor so that
/// memory stays flat whatever the number of rows. Its result is the number of rows written.
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
    ///   - request: what to export, in which order; `request.batchSize` rows are held at a time.
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
        // Checked before the file exists: a misspelt column fails with the entity's nearest name.
        let positions = try columns.map { try entity.position(of: $0) }
        var counted = request
        counted.includesPendingChanges = false  // the cursor reads saved rows only
        let total = try context.count(for: counted)
        reportProgress(completed: 0, of: total, message: "exporting \(total) \(entity.name) rows")

        let file = try ExportFile(destination: url)
        if let header = format.header(columns: columns) { file.append(header) }
        let format = self.format
        var written = 0
        var values: [AttributeValue] = []
        values.reserveCapacity(positions.count)
        try context.enumerate(request) { batch in
            try self.checkCancellation()
            file.withBuffer { buffer in
                for object in batch {
                    values.removeAll(keepingCapacity: true)
                    for position in positions { values.append(object.values[position]) }
                    format.appendRow(values, columns: columns, to: &buffer)
                }
            }
            try file.flushIfNeeded()
            written += batch.count
            self.reportProgress(completed: written, of: total)
        }
        try checkCancellation()
        try file.commit()
        reportProgress(completed: written, of: total, message: "wrote \(written) rows to \(url.lastPathComponent)")
        return written
    }
}
