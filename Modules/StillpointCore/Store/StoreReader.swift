/// What a read transaction offers above the seam: the rows of fetch requests (objects, IDs, counts, value
/// rows with aggregates, export cursors) and the change log. One consistent state of the store throughout.
///
/// Rows come to a closure one at a time; the reader makes each row's values once and hands them over, so a
/// fetch costs what reading its rows costs.
///
/// ```swift
/// try reader.forEachObject(request, limit: nil, offset: nil, streaming: false) { rowID, version, values in
///     objects.append(register(rowID, values, version))
/// }
/// ```
package protocol StoreReader {
    /// How the store's database spells SQL.
    var dialect: SQLDialect { get }

    /// Calls `body` with the row id, version and attribute values (in attribute order) of each row `request`
    /// matches, in its order, windowed by `limit` and `offset`. With `streaming`, `body` may read the store
    /// itself while the rows stream (a cursor).
    func forEachObject(_ request: FetchRequest, limit: Int?, offset: Int?, streaming: Bool,
                       _ body: (_ rowID: Int64, _ version: Int64, _ values: ContiguousArray<AttributeValue>) throws -> Void) throws

    /// Calls `body` with the row id, version and values of each stored row of `entity` among `rowIDs`, in no
    /// particular order; rows that no longer exist are left out.
    func forEachObject(of entity: EntityDescription, rowIDs: [Int64],
                       _ body: (_ rowID: Int64, _ version: Int64, _ values: ContiguousArray<AttributeValue>) throws -> Void) throws

    /// The number of rows `request` matches, ignoring its limit and offset.
    func count(_ request: FetchRequest) throws -> Int

    /// Calls `body` with the row id of each row `request` matches, ignoring its limit and offset.
    func forEachRowID(_ request: FetchRequest, _ body: (Int64) throws -> Void) throws

    /// The values and version of one row, or `nil` when it does not exist.
    func storedRow(id: Int64, of entity: EntityDescription) throws -> (ContiguousArray<AttributeValue>, Int64)?

    /// Calls `body` with the values of each row of a dictionary fetch (attributes and aggregates, grouped,
    /// filtered and ordered as `request` says), in the order of `columns`. `body` may read the store itself;
    /// the buffer it gets is reused for the next row. With `streaming`, memory holds a batch of rows at a time
    /// whatever their number (a cursor); without it, a store may read the whole result in one round trip.
    func forEachDictionaryRow(_ request: FetchRequest, columns: [DictionaryColumn], streaming: Bool,
                              _ body: (ContiguousArray<AttributeValue>) throws -> Void) throws

    /// Streams the `columns` (of `types`) of the rows `request` matches, windowed by its limit and offset, into
    /// `rows` through a cursor, one row of the store's own ``ExportRow`` type at a time, without making values.
    /// Memory stays flat whatever the number of rows.
    func exportRows(_ request: FetchRequest, columns: [String], types: ContiguousArray<AttributeType>,
                    to rows: inout ExportRowWriter) throws

    /// The sequence number of the latest change in the change log, or 0; purged changes still count.
    func lastHistorySequence() throws -> Int64

    /// The change sets recorded after the position `sequence`, oldest first, and the position after them (and
    /// after those left out); `excludingProcess` leaves out one process's own. An entry that cannot be read goes
    /// to `damaged` with its sequence number, which throws or skips it.
    func changeSets(after sequence: Int64, excludingProcess process: String?,
                    damaged: (Int64) throws -> Void) throws -> (changeSets: [ChangeSet], next: Int64)

    /// Every change set recorded after the position `sequence`, or an error when some were purged or one cannot
    /// be read.
    func completeHistory(after sequence: Int64, path: String) throws -> ChangeHistory

    /// Streams the rows of `entity` (only `rowIDs` when given) in store order, each with its row ID and
    /// `attributes`, read in place where the store can (see ``ScannedRow``).
    func scanRows(of entity: EntityDescription, attributes: [String], rowIDs: [Int64]?,
                  _ body: (borrowing ScannedRow) throws -> Void) throws

    /// Streams the row ID and `attributes` of each row `request` matches (its predicate, scope included, in the order
    /// of its sort keys and then row ids; no window) in one statement: a scan of part of a table, such as one
    /// practitioner's sessions through the index their column leads. `body` may read the store itself. Without
    /// `streaming` the rows may be held at once (one round trip); with it, memory holds a batch of rows at a time
    /// whatever their number (a cursor: the batch job's scan of every session).
    func scanRows(_ request: FetchRequest, attributes: [String], streaming: Bool, _ body: (borrowing ScannedRow) throws -> Void) throws
}
