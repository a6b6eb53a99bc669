import Foundation
import GRDB
import GRDBSQLite
import StillpointCore

/// Looks at a store file before it is opened, read-only, so that a failed open never changes it.
///
/// It refuses what is not a store (a folder, a file of another kind, another program's SQLite database), a store
/// of a newer format, and a damaged store; it checks integrity only when a writer did not close the store
/// (``OpenWriters``), since `PRAGMA quick_check` reads the whole file. Nothing a file holds or a path names may
/// trap here.
///
/// A Stillpoint store is recognised by its tables (``StoreRecognition``), not by `user_version` alone, which
/// other programs set too.
enum StorePreflight {
    private static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// What the look found.
    struct Findings {
        /// The path to open SQLite with: the file's, or an `immutable` URI for a store on a read-only medium.
        var openPath: String
        /// No store yet (no file or an empty one): a read-write open creates it.
        var isNew = false
        /// Writers that never closed the store, whose rows the next read-write open removes.
        var staleWriters: [String] = []
        /// The store must be upgraded to the schema (or its format marked) by a read-write open.
        var needsMigration = false
    }

    /// `addingToForeignDatabase` lets a read-write open add the store's tables to another program's database
    /// (one with tables of its own and none of the store's); without it such a database is refused untouched.
    static func check(fileAt url: URL, schema: Schema, access: StoreAccess, addingToForeignDatabase: Bool = false) throws -> Findings {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        guard kind(of: directory) == S_IFDIR else {
            // A reader was asked for a store, not a folder to put one in.
            throw access == .readWrite ? StoreError.missingDirectory(path: directory) : StoreError.noStore(path: path)
        }
        var findings = Findings(openPath: path)
        switch kind(of: path) {
        case nil:
            guard access == .readWrite else { throw StoreError.noStore(path: path) }
            guard isWritable(directory: directory) else { throw StoreError.readOnlyDirectory(path: directory) }
            findings.isNew = true
            return findings
        case S_IFREG?:
            break
        case S_IFDIR?:
            throw StoreError.notAFile(path: path)
        case let special?:
            throw StoreError.specialFile(path: path, kind: describe(kind: special))
        }
        if access == .readWrite, !isWritable(directory: directory) {
            throw StoreError.readOnlyDirectory(path: directory)
        }
        let header = try readHeader(path)
        if header.isEmpty {
            // An empty file: SQLite starts a new database in it.
            guard access == .readWrite else { throw StoreError.noStore(path: path) }
            findings.isNew = true
            return findings
        }
        guard header == sqliteHeader else {
            throw StoreError.notADatabase(path: path)
        }
        let adopting = addingToForeignDatabase && access == .readWrite
        // Another program's database is refused after a look that leaves nothing beside it: a plain open of a WAL
        // database makes `-wal` and `-shm` files, which a refusal must not leave behind.
        if !adopting, case .foreign(let tables, _)? = recognitionAtRest(of: path, schema: schema) {
            throw StoreError.foreignDatabase(path: path, tables: tables)
        }
        do {
            try look(at: path, schema: schema, access: access, adopting: adopting, into: &findings)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN && access == .readOnly
                    && kind(of: path + "-wal") == nil {
            // A store on a read-only medium, closed cleanly (no WAL): SQLite cannot make the shared-memory file a
            // WAL reader needs, but with no WAL and no possible writer the file can be read as immutable.
            findings.openPath = immutableURI(path)
            do {
                try look(at: path, schema: schema, access: access, adopting: adopting, into: &findings)
            } catch {
                throw StoreError.translating(error, path: path)
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN && access == .readOnly {
            throw StoreError.sqlite(path: path, code: error.extendedResultCode.rawValue, message:
                "the store and its write-ahead log (\(url.lastPathComponent)-wal) cannot be opened together here, as on a "
                + "read-only medium; copy the store with its -wal file to a writable folder and read it there")
        } catch {
            throw StoreError.translating(error, path: path)
        }
        if findings.isNew { return findings }
        if access == .readOnly, findings.needsMigration {
            throw StoreError.needsUpgrade(path: path)
        }
        return findings
    }

    /// Version, clean close, integrity when needed, and the migration plan, with nothing written.
    private static func look(at path: String, schema: Schema, access: StoreAccess, adopting: Bool,
                             into findings: inout Findings) throws {
        var configuration = Configuration()
        configuration.readonly = true
        // Only for SQLite's rare locks on a WAL store (a recovery after a crash, the last connection closing):
        // a WAL reader never waits for a writer.
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: findings.openPath, configuration: configuration)
        defer { try? queue.close() }
        findings = try queue.read { db in
            var findings = findings
            let recognition = try StoreRecognition(db, schema: schema)
            if recognition == .emptyDatabase {
                // A SQLite file with nothing in it yet, like an empty file: no store, until one is written.
                guard access == .readWrite else { throw StoreError.noStore(path: path) }
                findings.isNew = true
                return findings
            }
            // Right after recognition: another program's database is refused as such, never taken for a damaged
            // store or one with writers that did not close it.
            if case .foreign(let tables, let userVersion) = recognition {
                guard adopting else { throw StoreError.foreignDatabase(path: path, tables: tables) }
                // Stillpoint keeps its store version in user_version: sharing it would change the other program's.
                guard userVersion == 0 else { throw StoreError.foreignDatabaseVersioned(path: path, userVersion: userVersion) }
            }
            // Another program's user_version is its own, not a Stillpoint store version.
            if recognition == .store { try StoreFormat.check(db, path: path) }
            findings.staleWriters = try OpenWriters.staleTokens(in: db)
            let unversioned = try StoreFormat.version(of: db) < StoreFormat.current
            // Integrity is checked after a writer did not close the store, and once before an older store (or one
            // not made by Stillpoint) is first written to; an older store cannot tell whether it was closed.
            let olderStoreLeftAWAL = unversioned && (size(of: path + "-wal") ?? 0) > 0
            if !findings.staleWriters.isEmpty || olderStoreLeftAWAL || (unversioned && access == .readWrite) {
                let problems = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard problems == ["ok"] else {
                    throw StoreError.corrupt(path: path, detail: problems.prefix(3).joined(separator: "; "))
                }
            }
            // Reading needs the entities' tables and the change log, not the table of open writers, nor the
            // cleanup of what the schema no longer declares.
            let plan = try SchemaMigrator(schema: schema, path: path).plan(db)
            findings.needsMigration = plan.contains { !$0.isCleanup && $0.sql != OpenWriters.createTable }
            return findings
        }
    }

    /// What the file is, read as immutable, so that SQLite makes no `-wal` or `-shm` beside it: safe when no
    /// `-wal` exists (nobody has the database open in WAL mode, so the file holds all of it). `nil` when a `-wal`
    /// exists or the file cannot be read so; the full look then decides.
    private static func recognitionAtRest(of path: String, schema: Schema) -> StoreRecognition? {
        guard kind(of: path + "-wal") == nil else { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: immutableURI(path), configuration: configuration) else { return nil }
        defer { try? queue.close() }
        return try? queue.read { db in try StoreRecognition(db, schema: schema) }
    }

    /// The kind of file at `path` (`S_IFREG`, `S_IFDIR`, ...), following symbolic links; `nil` when there is none.
    static func kind(of path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    /// "a character device", "a FIFO (named pipe)", ...: what a file that is not a regular file or a folder is.
    static func describe(kind: mode_t) -> String {
        switch kind {
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO (named pipe)"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    private static func size(of path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int64(status.st_size)
    }

    /// The file's first 16 bytes (fewer for a shorter file), read with plain system calls.
    private static func readHeader(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw StoreError.sqlite(path: path, code: SQLITE_CANTOPEN, message: "the file cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: sqliteHeader.count)
        var filled = 0
        while filled < header.count {
            let count = header.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + filled, buffer.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw StoreError.sqlite(path: path, code: SQLITE_IOERR, message: "the file cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            filled += count
        }
        return Array(header.prefix(filled))
    }

    /// A URI that opens `path` as immutable: SQLite takes no locks and assumes nobody changes the file.
    static func immutableURI(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return "file:\(encoded)?immutable=1"
    }

    /// Whether files can be created in `directory`: the permission bits are checked too, since the
    /// superuser passes `access(2)` even where the owner asked for a read-only folder.
    private static func isWritable(directory: String) -> Bool {
        guard access(directory, W_OK) == 0 else { return false }
        var status = stat()
        guard stat(directory, &status) == 0 else { return true }
        return status.st_mode & 0o222 != 0
    }
}
