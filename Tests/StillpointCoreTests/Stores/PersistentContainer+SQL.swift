import Foundation
import GRDB
@testable import StillpointCore
@testable import StillpointSQLite
import StillpointPostgres
import Testing

extension PersistentContainer {
    /// Runs `sql` on the store directly, outside every context, as another program would: SQLite through a
    /// connection of the store's own, PostgreSQL through a connection of its own. For SQL both databases speak.
    func executeSQL(_ sql: String) throws {
        if let uri = store.location.postgresURI {
            try PostgresConnection(uri: uri).execute(sql)
        } else {
            try sqliteStore.write { db in try db.execute(sql: sql) }
        }
    }

    /// The integer the first column of the first row of `sql` holds, read as ``executeSQL(_:)`` writes.
    func integer(_ sql: String) throws -> Int64? {
        if let uri = store.location.postgresURI {
            return try PostgresConnection(uri: uri).execute(sql).integer(row: 0, column: 0)
        }
        return try sqliteStore.read { db in try Int64.fetchOne(db, sql: sql) }
    }

    /// The first column of every row of `sql`, as text (`NULL` as `nil`), read as ``executeSQL(_:)`` writes.
    func strings(_ sql: String) throws -> [String?] {
        if let uri = store.location.postgresURI {
            let result = try PostgresConnection(uri: uri).execute(sql)
            return (0..<result.rowCount).map { result.text(row: $0, column: 0) }
        }
        return try sqliteStore.read { db in try String?.fetchAll(db, sql: sql) }
    }

    /// How many frames of a SQLite store file's WAL a passive checkpoint, run as another connection, leaves
    /// uncopied: more than 0 while a read transaction older than them is held open.
    func walFramesACheckpointCannotCopy() throws -> Int {
        guard let url = store.location.fileURL else { return 0 }
        let checkpoint = try DatabaseQueue(path: url.path).writeWithoutTransaction { db in try db.checkpoint(.passive) }
        return checkpoint.walFrameCount - checkpoint.checkpointedFrameCount
    }

    /// The table of the store's change log (`sequence`, `changes`, ... on both databases).
    var changeLogTable: String {
        if store.location.postgresURI != nil { return PostgresChangeLog.table }
        return ChangeLog.table
    }

    /// How many entries the store's change log holds, counted directly (with no watermark holding any back).
    func changeLogEntryCount() throws -> Int64? {
        try integer("SELECT COUNT(*) FROM \(changeLogTable)")
    }
}
