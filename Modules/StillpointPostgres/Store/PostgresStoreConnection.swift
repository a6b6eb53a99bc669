import Foundation
import StillpointCore
import StillpointSQL

/// PostgreSQL's side of the store seam: one libpq connection inside a transaction. The SQL comes from
/// ``SQLDialect/postgreSQL`` through the same query builders SQLite's store uses, so that a fetch request selects
/// the same rows on both stores.
///
/// Reads run in `REPEATABLE READ` transactions: one snapshot for the whole body.
///
/// ```swift
/// let count = try PostgresStoreConnection.reading(on: connection) { reader in try reader.count(request) }
/// ```
package struct PostgresStoreConnection: StoreReader {
    package let connection: PostgresConnection
    /// What a write transaction does once it commits.
    package let commitActions: PostgresCommitActions

    package var dialect: SQLDialect { .postgreSQL }

    package init(_ connection: PostgresConnection, commitActions: PostgresCommitActions = PostgresCommitActions()) {
        self.connection = connection
        self.commitActions = commitActions
    }

    /// Runs `body` in a read-only `REPEATABLE READ` transaction, its `BEGIN` sent with the first statement and its
    /// `COMMIT` not waited for (``PostgresConnection/readTransaction(_:_:)``); a cancelled statement throws the
    /// server's ``PostgresError`` (``PostgresError/isCancellation``), which the store tells apart from its own interrupt.
    package static func reading<T>(on connection: PostgresConnection, _ body: (PostgresStoreConnection) throws -> T) throws -> T {
        try connection.readTransaction("ISOLATION LEVEL REPEATABLE READ, READ ONLY") { try body(PostgresStoreConnection(connection)) }
    }

    // MARK: Statements

    /// Runs `fragment` with its arguments sent as text.
    @discardableResult
    func run(_ fragment: SQLFragment) throws -> PostgresResult {
        try connection.execute(fragment.sql, fragment.arguments.map(PostgresValueText.text))
    }

    /// `"_id", "_version", "a", "b"`: the columns every object read selects, in attribute order.
    static func objectColumns(of entity: EntityDescription) -> String {
        SQLDialect.postgreSQL.objectColumns(of: entity)
    }

    /// Calls `body` with the id, version and values of each row of a result of ``objectColumns(of:)``; a value its
    /// attribute cannot hold (another program wrote it) throws a ``StoredValueError``.
    static func forEachObjectRow(_ result: PostgresResult, of entity: EntityDescription,
                                         _ body: (Int64, Int64, ContiguousArray<AttributeValue>) throws -> Void) throws {
        let types = entity.storedAttributes.map(\.type)
        for row in 0..<result.rowCount {
            var values = ContiguousArray<AttributeValue>()
            values.reserveCapacity(types.count)
            for (offset, type) in types.enumerated() {
                values.append(PostgresValueText.value(result.text(row: row, column: 2 + offset), as: type))
            }
            let rowID = result.integer(row: row, column: 0) ?? 0
            try entity.checkStoredValues(values, rowID: rowID)
            try body(rowID, result.integer(row: row, column: 1) ?? 0, values)
        }
    }

    // MARK: StoreReader

    package func forEachObject(_ request: FetchRequest, limit: Int?, offset: Int?, streaming: Bool,
                               _ body: (Int64, Int64, ContiguousArray<AttributeValue>) throws -> Void) throws {
        let query = try dialect.select(request, columns: Self.objectColumns(of: request.entity), limit: limit, offset: offset)
        guard streaming else {
            // A whole result: `body` may use the connection, since every row has arrived.
            return try Self.forEachObjectRow(try run(query), of: request.entity, body)
        }
        // A stream holds one chunk at a time; between chunks the connection is free for `body`.
        try PostgresCursor(connection, name: "stillpoint_objects").forEachChunk(query.sql, query.arguments.map(PostgresValueText.text)) { result in
            try Self.forEachObjectRow(result, of: request.entity, body)
        }
    }

    package func forEachObject(of entity: EntityDescription, rowIDs: [Int64],
                               _ body: (Int64, Int64, ContiguousArray<AttributeValue>) throws -> Void) throws {
        guard !rowIDs.isEmpty else { return }
        // One array parameter, however many ids.
        let sql = "SELECT \(Self.objectColumns(of: entity)) FROM \(dialect.quote(entity.name)) WHERE \"_id\" = ANY($1::bigint[])"
        let result = try connection.execute(sql, ["{" + rowIDs.map(String.init).joined(separator: ",") + "}"])
        try Self.forEachObjectRow(result, of: entity, body)
    }

    /// A column scan through a cursor: only the `_id` and the attributes asked for, one chunk of rows in memory at a
    /// time, so that a report's digest of a million sessions costs what it costs on SQLite.
    package func scanRows(of entity: EntityDescription, attributes: [String], rowIDs: [Int64]?,
                          _ body: (borrowing ScannedRow) throws -> Void) throws {
        let types = try attributes.map { name throws(SchemaError) in try entity.checkedAttribute(named: name).type }
        var sql = "SELECT \"_id\"" + attributes.map { ", " + dialect.quote($0) }.joined() + " FROM \(dialect.quote(entity.name))"
        var parameters: [String?] = []
        if let rowIDs {
            guard !rowIDs.isEmpty else { return }
            sql += " WHERE \"_id\" = ANY($1::bigint[])"
            parameters = ["{" + rowIDs.map(String.init).joined(separator: ",") + "}"]
        }
        try PostgresCursor(connection, name: "stillpoint_scan").forEachChunk(sql, parameters) { result in
            try result.forEachScannedRow(types: types, body)
        }
    }

    /// One statement, its result read whole (one round trip, no cursor's three): the rows of part of a table, such
    /// as one practitioner's sessions, through the index their column leads. Memory holds that part's rows. The
    /// statement is prepared on the connection: the next practitioner's read runs it by name, neither parsed nor
    /// planned again. `streaming`, it is read through a cursor instead, a batch of rows at a time (the batch job's
    /// scan of every session), each batch read in place.
    package func scanRows(_ request: FetchRequest, attributes: [String], streaming: Bool,
                          _ body: (borrowing ScannedRow) throws -> Void) throws {
        let types = try attributes.map { name throws(SchemaError) in try request.entity.checkedAttribute(named: name).type }
        let query = try dialect.select(request, columns: (["_id"] + attributes).map(dialect.quote).joined(separator: ", "))
        let parameters = query.arguments.map(PostgresValueText.text)
        guard streaming else {
            return try connection.executePrepared(query.sql, parameters).forEachScannedRow(types: types, body)
        }
        // Between batches the connection is free for `body`, which may read the store (a statistic of the batch job).
        try PostgresCursor(connection, name: "stillpoint_ordered_scan").forEachChunk(query.sql, parameters) { result in
            try result.forEachScannedRow(types: types, body)
        }
    }

    package func count(_ request: FetchRequest) throws -> Int {
        let result = try run(try dialect.select(request, columns: "COUNT(*)"))
        return Int(result.integer(row: 0, column: 0) ?? 0)
    }

    package func forEachRowID(_ request: FetchRequest, _ body: (Int64) throws -> Void) throws {
        let result = try run(try dialect.select(request, columns: "\"_id\""))
        for row in 0..<result.rowCount {
            if let id = result.integer(row: row, column: 0) { try body(id) }
        }
    }

    package func storedRow(id: Int64, of entity: EntityDescription) throws -> (ContiguousArray<AttributeValue>, Int64)? {
        var found: (ContiguousArray<AttributeValue>, Int64)?
        let sql = "SELECT \(Self.objectColumns(of: entity)) FROM \(dialect.quote(entity.name)) WHERE \"_id\" = $1::bigint"
        try Self.forEachObjectRow(try connection.execute(sql, [String(id)]), of: entity) { _, version, values in
            found = (values, version)
        }
        return found
    }

    /// Streaming, through a cursor (``PostgresCursor``, a batch of rows at a time: the batch job's scan of every
    /// session); otherwise the whole result in one round trip.
    package func forEachDictionaryRow(_ request: FetchRequest, columns: [DictionaryColumn], streaming: Bool,
                                      _ body: (ContiguousArray<AttributeValue>) throws -> Void) throws {
        let query = try dialect.dictionarySelect(request, columns: columns)
        let types = columns.map(\.type)
        var values = ContiguousArray<AttributeValue>()
        values.reserveCapacity(types.count)
        func forEachRow(of result: PostgresResult) throws {
            for row in 0..<result.rowCount {
                values.removeAll(keepingCapacity: true)
                for (offset, type) in types.enumerated() {
                    values.append(PostgresValueText.value(result.text(row: row, column: offset), as: type))
                }
                try body(values)
            }
        }
        guard streaming else { return try forEachRow(of: try run(query)) }
        // Between batches the connection is free for `body`, which may read the store (a statistic of the batch job).
        try PostgresCursor(connection, name: "stillpoint_rows").forEachChunk(query.sql, query.arguments.map(PostgresValueText.text), forEachRow)
    }

    package func exportRows(_ request: FetchRequest, columns: [String], types: ContiguousArray<AttributeType>,
                            to rows: inout ExportRowWriter) throws {
        try PostgresExportCursor(connection).export(request, columns: columns, types: types, to: &rows)
    }

    // MARK: History

    /// The change log's position: a watermark (see ``PostgresChangeLog``), not the sequence number of an entry.
    /// Every change set committed before it has been, or can be, read with ``changeSets(after:excludingProcess:damaged:)``.
    package func lastHistorySequence() throws -> Int64 {
        Self.sequence(of: try PostgresChangeLog.currentPosition(on: connection))
    }

    /// The change sets of the transactions that ended since the watermark `sequence`, in sequence order, and the
    /// watermark after them.
    package func changeSets(after sequence: Int64, excludingProcess process: String?,
                            damaged: (Int64) throws -> Void) throws -> (changeSets: [ChangeSet], next: Int64) {
        let read = try readChangeSets(after: sequence, excludingProcess: process, damaged: damaged)
        return (read.changeSets, read.next)
    }

    /// ``changeSets(after:excludingProcess:damaged:)``, and whether a transaction that ended during the read held
    /// it back (``PostgresChangeLog/Read/heldBackByEndedTransaction``).
    private func readChangeSets(after sequence: Int64, excludingProcess process: String?, damaged: (Int64) throws -> Void) throws
        -> (changeSets: [ChangeSet], next: Int64, heldBack: Bool) {
        let read = try PostgresChangeLog.entries(after: Self.position(of: sequence), on: connection)
        var changeSets: [ChangeSet] = []
        for entry in read.entries where process == nil || entry.origin != process {
            guard let changeSet = Self.changeSet(of: entry) else {
                try damaged(entry.sequence)
                continue
            }
            changeSets.append(changeSet)
        }
        return (changeSets, Self.sequence(of: read.next), read.heldBackByEndedTransaction)
    }

    package func completeHistory(after sequence: Int64, path: String) throws -> ChangeHistory {
        let purged = try connection.execute("SELECT through FROM \(PostgresSchema.purgeTable)").integer(row: 0, column: 0) ?? 0
        guard sequence >= purged else {
            throw StoreError.historyPurged(path: path, token: HistoryToken(sequence: sequence), purgedThrough: HistoryToken(sequence: purged))
        }
        let read = try readChangeSets(after: sequence, excludingProcess: nil) { damaged in
            throw StoreError.corrupt(path: path, detail: "the change log's entry \(damaged) in \(PostgresChangeLog.table) cannot be read")
        }
        return ChangeHistory(changeSets: read.changeSets, token: HistoryToken(sequence: read.next), mayBeBehind: read.heldBack)
    }

    /// A watermark as the seam's `Int64` history position (transaction ids stay far below 2^63).
    static func sequence(of position: PostgresChangeLog.Position) -> Int64 {
        Int64(clamping: position.watermark)
    }

    static func position(of sequence: Int64) -> PostgresChangeLog.Position {
        PostgresChangeLog.Position(watermark: UInt64(clamping: max(0, sequence)))
    }

    /// An entry's change set, or `nil` when its changes cannot be read.
    static func changeSet(of entry: PostgresChangeLog.Entry) -> ChangeSet? {
        ChangeLogPayload.changeSet(sequence: entry.sequence, author: entry.author,
                                   timestamp: Date(timeIntervalSince1970: entry.timestamp), text: entry.changes)
    }
}
