import Foundation
import GRDB
import GRDBSQLite

/// Checks a store file before it is opened for writing, so that a failed open never changes it.
enum StorePreflight {
    private static let sqliteHeader = Array("SQLite format 3\0".utf8)

    static func check(fileAt url: URL, schema: Schema) throws {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw StoreError.missingDirectory(path: directory)
        }
        guard isWritable(directory: directory) else {
            throw StoreError.readOnlyDirectory(path: directory)
        }
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 else {
            return  // a new or empty file: SQLite starts a new database
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw StoreError.sqlite(path: path, code: SQLITE_CANTOPEN, message: "the file cannot be read")
        }
        let header = handle.readData(ofLength: sqliteHeader.count)
        try? handle.close()
        guard Array(header) == sqliteHeader else {
            throw StoreError.notADatabase(path: path)
        }
        // A read-only look first: integrity and the migration plan, with nothing written.
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.read { db in
                let problems = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard problems == ["ok"] else {
                    throw StoreError.corrupt(path: path, detail: problems.prefix(3).joined(separator: "; "))
                }
                _ = try SchemaMigrator(schema: schema, path: path).plan(db)
            }
            try queue.close()
        } catch {
            throw StoreError.translating(error, path: path)
        }
    }

    /// Whether files can be created in `directory`: the permission bits are checked too, since the
    /// superuser passes `access(2)` even where the owner asked for a read-only folder.
    private static func isWritable(directory: String) -> Bool {
        guard access(directory, W_OK) == 0 else { return false }
        guard let permissions = (try? FileManager.default.attributesOfItem(atPath: directory))?[.posixPermissions] as? Int else {
            return true
        }
        return permissions & 0o222 != 0
    }
}
