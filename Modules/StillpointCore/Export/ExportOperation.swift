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
        // Checked before the file exists: a misspelt column or sort key fails with the entity's nearest name.
        _ = try selectedColumns()
        var counted = request.scoped(by: context.scope)
        counted.includesPendingChanges = false  // the cursor reads saved rows only
        let total = try context.count(for: counted)
        reportProgress(completed: 0, of: total, message: "exporting \(total) \(entity.name) rows")

        let graph = context.graph
        let written = try write(request: counted, reading: { body in try graph.withReader(body) }) { written in
            try self.checkCancellation()
            self.reportProgress(completed: written, of: total)
        }
        reportProgress(completed: written, of: total, message: "wrote \(written) rows to \(url.lastPathComponent)")
        return written
    }

    /// Writes the file: the rows a reader that `reading` hands out streams, the selected columns only, straight
    /// from the store's cursor into bytes (no object, no `String` per row); `checkpoint` runs every
    /// `request.batchSize` rows and may throw to stop. Returns the number of rows. ``main(context:)`` reads through
    /// its context; a store that no container opens yet can be read directly.
    package func write(request: FetchRequest? = nil, reading: ((any StoreReader) throws -> Void) throws -> Void,
                       checkpoint: @escaping (_ written: Int) throws -> Void) throws -> Int {
        let request = request ?? self.request
        if let problem = format.configurationProblem { throw ContextOperationError.misused(identifier: identifier, reason: problem) }
        let (columns, types) = try selectedColumns()
        let file = try ExportFile(destination: url)
        var rows = ExportRowWriter(format: format, columns: columns, file: file, step: request.batchSize, checkpoint: checkpoint)
        try reading { reader in try reader.exportRows(request, columns: columns, types: types, to: &rows) }
        try checkCancellation()
        return try rows.commit()
    }

    /// The columns written and their types; throws for a column or sort key the entity does not have.
    private func selectedColumns() throws -> (columns: [String], types: ContiguousArray<AttributeType>) {
        let entity = request.entity
        let columns = self.columns ?? entity.storedAttributes.map(\.name)
        for key in request.sortKeys { _ = try entity.position(of: key.attribute) }
        return (columns, ContiguousArray(try columns.map { entity.storedAttributes[try entity.position(of: $0)].type }))
    }
}
