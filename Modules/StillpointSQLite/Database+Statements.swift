import Foundation
import GRDB
import GRDBSQLite
import StillpointCore

/// An error SQLite returned while a statement ran, with its extended result code.
struct SQLiteFailure: Error {
    let code: Int32
    let message: String

    var isUniquenessViolation: Bool { code == 2067 /* SQLITE_CONSTRAINT_UNIQUE */ || code == 1555 /* PRIMARYKEY */ }

    /// Runs `body`, turning a foreign key SQLite refused into the save error that says what happened.
    static func mappingBrokenReferences<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as SQLiteFailure where failure.code == 787 /* SQLITE_CONSTRAINT_FOREIGNKEY */ {
            throw SaveError.brokenReference(failure.message)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY {
            throw SaveError.brokenReference(error.message ?? "FOREIGN KEY constraint failed")
        }
    }
}

extension Database {
    /// Runs a cached statement with `arguments` and returns the number of rows it changed.
    ///
    /// Binds values straight to SQLite: this is the hot path of saves and batch operations.
    @discardableResult
    func run<Arguments: Collection<AttributeValue>>(_ sql: String, _ arguments: Arguments) throws -> Int {
        let statement = try cachedStatement(sql: sql)
        let handle = statement.sqliteStatement
        try bind(arguments, to: handle)
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw failure(code) }
        return Int(sqlite3_changes(sqliteConnection))
    }

    @discardableResult
    func run(_ sql: String) throws -> Int {
        try run(sql, EmptyCollection())
    }

    /// Runs a statement prepared once for many rows (one per entity per save): binds `values` to its first
    /// parameters, then `rowID` and `version` after them when given, and returns the number of rows it changed.
    ///
    /// No SQL string is built or looked up per row, and no argument array is allocated.
    @discardableResult
    func run(_ statement: Statement, values: ContiguousArray<AttributeValue>, rowID: Int64? = nil, version: Int64? = nil) throws -> Int {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        var index: Int32 = 0
        for value in values {
            index += 1
            let code = value.bind(to: handle, at: index)
            guard code == SQLITE_OK else { throw failure(code) }
        }
        if let rowID {
            index += 1
            let code = sqlite3_bind_int64(handle, index, rowID)
            guard code == SQLITE_OK else { throw failure(code) }
        }
        if let version {
            index += 1
            let code = sqlite3_bind_int64(handle, index, version)
            guard code == SQLITE_OK else { throw failure(code) }
        }
        defer { sqlite3_reset(handle) }
        let code = sqlite3_step(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else { throw failure(code) }
        return Int(sqlite3_changes(sqliteConnection))
    }

    /// The row id of the last row inserted on this connection, read straight from SQLite (the hot path of saves).
    var lastInsertedRowIDUnchecked: Int64 {
        sqlite3_last_insert_rowid(sqliteConnection)
    }

    /// Runs a query and calls `row` for each result row; `row` reads columns with ``AttributeValue/init(column:of:as:)``.
    func query(_ sql: String, _ arguments: [AttributeValue] = [], row: (OpaquePointer) throws -> Void) throws {
        try query(try cachedStatement(sql: sql), arguments, row: row)
    }

    /// Runs a prepared query and calls `row` for each result row.
    func query(_ statement: Statement, _ arguments: [AttributeValue] = [], row: (OpaquePointer) throws -> Void) throws {
        let handle = statement.sqliteStatement
        try bind(arguments, to: handle)
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(code) }
            try row(handle)
        }
    }

    private func bind<Arguments: Collection<AttributeValue>>(_ arguments: Arguments, to handle: OpaquePointer) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in arguments.enumerated() {
            let code = value.bind(to: handle, at: Int32(offset + 1))
            guard code == SQLITE_OK else { throw failure(code) }
        }
    }

    private func failure(_ code: Int32) -> any Error {
        let message = sqliteConnection.map { String(cString: sqlite3_errmsg($0)) } ?? "the connection is closed"
        let extended = sqlite3_extended_errcode(sqliteConnection)
        if code == SQLITE_INTERRUPT {
            return CancellationError()
        }
        return SQLiteFailure(code: extended, message: message)
    }
}
