import CLibPQBaseline
import Foundation

/// A bare libpq connection: the PostgreSQL baseline Stillpoint is compared with, calling the C client as an app
/// without Stillpoint would (prepared statements with text parameters, `COPY ... FROM STDIN` in text format).
///
/// Use it on one thread only.
///
/// ```swift
/// let raw = try RawPostgres(uri: uri)
/// try raw.prepare("insert", #"INSERT INTO "Item" ("uid", "title") VALUES ($1, $2)"#)
/// try raw.execute("BEGIN")
/// try raw.executePrepared("insert", "1", "Item 1")
/// try raw.execute("COMMIT")
/// ```
final class RawPostgres {
    private let connection: OpaquePointer

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(uri: String) throws {
        guard let connection = PQconnectdb(uri) else { throw Failure(description: "libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            defer { PQfinish(connection) }
            throw Failure(description: "cannot connect: \(String(cString: PQerrorMessage(connection)))")
        }
        self.connection = connection
        // Notices ("... does not exist, skipping") would go to standard error.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit {
        PQfinish(connection)
    }

    /// Runs SQL statements that return no rows worth reading.
    func execute(_ sql: String) throws {
        PQclear(try check(PQexec(connection, sql), sql))
    }

    /// Prepares `sql` as the statement `name`, its parameters' types inferred by the server.
    func prepare(_ name: String, _ sql: String) throws {
        PQclear(try check(PQprepare(connection, name, sql, 0, nil), sql))
    }

    /// Runs the prepared statement `name` with one text parameter.
    func executePrepared(_ name: String, _ first: String) throws {
        let result = first.withCString { first in
            var values: [UnsafePointer<CChar>?] = [first]
            return PQexecPrepared(connection, name, 1, &values, nil, nil, 0)
        }
        PQclear(try check(result, name))
    }

    /// Runs the prepared statement `name` with two text parameters.
    func executePrepared(_ name: String, _ first: String, _ second: String) throws {
        let result = first.withCString { first in
            second.withCString { second in
                var values: [UnsafePointer<CChar>?] = [first, second]
                return PQexecPrepared(connection, name, 2, &values, nil, nil, 0)
            }
        }
        PQclear(try check(result, name))
    }

    /// Runs `sql` unprepared (`PQexecParams`: parsed and planned each time) with text parameters, and returns how
    /// many rows it returned.
    @discardableResult
    func execute(_ sql: String, parameters: [String]) throws -> Int32 {
        let result = try executeParameters(sql, parameters)
        defer { PQclear(result) }
        return PQntuples(result)
    }

    /// Runs `sql` unprepared with text parameters, and returns how many rows it inserted, updated or deleted.
    func changeRows(_ sql: String, parameters: [String]) throws -> Int {
        let result = try executeParameters(sql, parameters)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// `PQexecParams` with text parameters; the caller clears the result.
    private func executeParameters(_ sql: String, _ parameters: [String]) throws -> OpaquePointer {
        // The parameters' bytes in one buffer, each ended by a NUL, and a pointer to each.
        var bytes: [CChar] = []
        var starts: [Int] = []
        for parameter in parameters {
            starts.append(bytes.count)
            bytes.append(contentsOf: parameter.utf8.map { CChar(bitPattern: $0) })
            bytes.append(0)
        }
        return try check(bytes.withUnsafeBufferPointer { buffer in
            var values: [UnsafePointer<CChar>?] = starts.map { start in buffer.baseAddress.map { $0 + start } }
            return PQexecParams(connection, sql, Int32(values.count), nil, &values, nil, nil, 0)
        }, sql)
    }

    /// Runs the prepared statement `name` with one text parameter and hands each row's columns as C strings to
    /// `body` (a statement with `RETURNING`, or a query).
    func executePrepared(_ name: String, _ first: String, rows body: (_ value: (Int32) -> UnsafePointer<CChar>) throws -> Void) throws {
        let result = try check(first.withCString { first in
            var values: [UnsafePointer<CChar>?] = [first]
            return PQexecPrepared(connection, name, 1, &values, nil, nil, 0)
        }, name)
        defer { PQclear(result) }
        try forEachRow(of: result, body)
    }

    /// Runs a query and hands each row's columns, as C strings, to `body`.
    func query(_ sql: String, rows body: (_ value: (Int32) -> UnsafePointer<CChar>) throws -> Void) throws {
        let result = try check(PQexec(connection, sql), sql)
        defer { PQclear(result) }
        try forEachRow(of: result, body)
    }

    /// The single integer a query returns.
    func integer(_ sql: String) throws -> Int64 {
        var value: Int64?
        try query(sql) { column in value = strtoll(column(0), nil, 10) }
        guard let value else { throw Failure(description: "\(sql): no row") }
        return value
    }

    /// The single text a query returns.
    func text(_ sql: String) throws -> String {
        var value: String?
        try query(sql) { column in value = String(cString: column(0)) }
        guard let value else { throw Failure(description: "\(sql): no row") }
        return value
    }

    /// Runs `COPY ... FROM STDIN` (`sql`) and sends what `fill` appends to its buffer, in text format (fields
    /// separated by tabs, rows ended by newlines), 64 KiB at a time. `fill` is called until it returns `false`.
    func copy(_ sql: String, _ fill: (inout [UInt8]) throws -> Bool) throws {
        PQclear(try check(PQexec(connection, sql), sql, expecting: PGRES_COPY_IN))
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 17)
        func send() throws {
            let sent = buffer.withUnsafeBufferPointer { bytes in
                bytes.baseAddress.map { PQputCopyData(connection, UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self), Int32(bytes.count)) } ?? 1
            }
            buffer.removeAll(keepingCapacity: true)
            guard sent == 1 else { throw failure(sql) }
        }
        while try fill(&buffer) {
            if buffer.count >= 1 << 16 { try send() }
        }
        try send()
        guard PQputCopyEnd(connection, nil) == 1 else { throw failure(sql) }
        PQclear(try check(PQgetResult(connection), sql))
        while let extra = PQgetResult(connection) { PQclear(extra) }
    }

    private func forEachRow(of result: OpaquePointer, _ body: (_ value: (Int32) -> UnsafePointer<CChar>) throws -> Void) throws {
        let count = PQntuples(result)
        var row: Int32 = 0
        while row < count {
            // A SQL NULL comes as an empty string; NULL only for a column out of range.
            try body { column in PQgetvalue(result, row, column).map { UnsafePointer($0) } ?? Self.emptyText }
            row += 1
        }
    }

    /// An empty C string, for a column libpq has no value for.
    private nonisolated(unsafe) static let emptyText: UnsafePointer<CChar> = {
        let text = UnsafeMutablePointer<CChar>.allocate(capacity: 1)
        text.initialize(to: 0)
        return UnsafePointer(text)
    }()

    private func check(_ result: OpaquePointer?, _ sql: String, expecting expected: ExecStatusType? = nil) throws -> OpaquePointer {
        guard let result else { throw failure(sql) }
        let status = PQresultStatus(result)
        guard expected.map({ status == $0 }) ?? (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) else {
            defer { PQclear(result) }
            throw Failure(description: "\(sql): \(String(cString: PQresultErrorMessage(result)))")
        }
        return result
    }

    private func failure(_ sql: String) -> Failure {
        Failure(description: "\(sql): \(String(cString: PQerrorMessage(connection)))")
    }
}
