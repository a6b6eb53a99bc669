import Foundation
import StillpointCore
import StillpointReport
import StillpointDefaultStore

/// The files that make up a SQLite store (the database and its `-wal`, `-shm` and `-journal` companions), so
/// that no output is ever written over one of them.
///
/// Paths are compared by what they point at, not by how they are spelt: `./s.sqlite`, `dir/../s.sqlite`, a
/// symbolic link and a hard link to the store are all the store.
///
/// ```swift
/// try StoreFiles(store: storeURL).refuse(output: "practice.sqlite-wal", option: "--output")
/// // ToolFailure: "--output practice.sqlite-wal is the store's write-ahead log ..."
/// ```
struct StoreFiles {
    /// The companion files SQLite keeps beside a store, with what each is.
    static let companions: [(suffix: String, name: String)] = [
        ("", "the store"), ("-wal", "the store's write-ahead log"), ("-shm", "the store's shared-memory index"),
        ("-journal", "the store's rollback journal"),
    ]

    let store: URL

    init(store: URL) {
        self.store = store
    }

    /// Throws a ``ToolFailure`` (cannot create output) when `output` is the store or one of its companions.
    func refuse(output: String, option: String) throws {
        let outputURL = URL(fileURLWithPath: (output as NSString).expandingTildeInPath)
        let outputIdentity: FileIdentity?
        if case .stream(let descriptor) = OutputDestination(path: output) {
            // Standard output redirected to the store (`>> practice.sqlite`) is the store too.
            outputIdentity = FileIdentity(descriptor: descriptor)
        } else {
            outputIdentity = FileIdentity(path: outputURL.path)
        }
        let outputName = Self.canonicalPath(outputURL)
        for (suffix, name) in Self.companions {
            let companion = URL(fileURLWithPath: store.path + suffix)
            let sameFile = outputIdentity != nil && outputIdentity == FileIdentity(path: companion.path)
            guard sameFile || outputName == Self.canonicalPath(companion) else { continue }
            throw ToolFailure("\(option) \(output) is \(name) (\(store.path)); writing there would destroy the "
                              + "sessions in it. Name another file for the output", status: .cannotCreate)
        }
    }

    /// Refuses standard output or standard error opened onto a store before the command line is even parsed, so
    /// that not even `--help`, a usage error or a mistyped command is written over it: the store is the last
    /// `--store` the arguments name (the default store when there is none, or when it names a PostgreSQL
    /// database), and any SQLite database or `-wal`, `-shm` or `-journal` file beside one counts as well. The
    /// store a manifest names is checked again when the command opens it.
    ///
    /// ```swift
    /// try StoreFiles.refuseStandardStreams(arguments: ["report", "--store", "s.sqlite", "--help"])
    /// // `1<>s.sqlite`: ToolFailure "standard output is the store (/home/me/s.sqlite); ...", 73
    /// ```
    static func refuseStandardStreams(arguments: [String]) throws {
        var named: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--store", index + 1 < arguments.count {
                named = arguments[index + 1]
            } else if argument.hasPrefix("--store=") {
                named = String(argument.dropFirst("--store=".count))
            }
        }
        let store = named.flatMap { StoreOption.isServerURI($0) ? nil : URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) }
        try StoreFiles(store: store ?? DefaultStore.url()).refuseStandardStreams()
    }

    /// Refuses standard output or standard error opened onto the store or one of its companions, by device and
    /// inode, whatever the redirection (`1<> s.sqlite`, `>> s.sqlite-wal`, a link), or onto any other SQLite
    /// database or companion of one: text written there would destroy the sessions. Called before anything is
    /// written. (`> s.sqlite` and `2> s.sqlite-wal` are emptied by the shell before the tool starts.)
    ///
    /// Standard error onto the store is first pointed at `/dev/null`, so that not even this refusal lands in the
    /// store; the refusal is then said on standard output, when that is safe, and the status is 73.
    ///
    /// ```swift
    /// try StoreFiles(store: storeURL).refuseStandardStreams()
    /// // ToolFailure: "standard output is the store (/home/me/s.sqlite); ..."
    /// ```
    func refuseStandardStreams() throws {
        let outputFile = storeFile(openAs: STDOUT_FILENO)
        if let errorFile = storeFile(openAs: STDERR_FILENO) {
            let null = open("/dev/null", O_WRONLY)
            if null >= 0 {
                dup2(null, STDERR_FILENO)
                close(null)
            }
            if outputFile == nil {
                Output.print("Error: standard error is \(errorFile.name) (\(errorFile.store)); writing there would destroy the "
                             + "sessions in it, so nothing was done. Redirect standard error to another file")
            }
            throw ExitStatus.cannotCreate.exitCode
        }
        if let outputFile {
            throw ToolFailure("standard output is \(outputFile.name) (\(outputFile.store)); writing there would destroy the "
                              + "sessions in it, so nothing was done. Redirect standard output to another file", status: .cannotCreate)
        }
    }

    /// Which store file `descriptor` is open on, and the store's path: one of this store's files, by device and
    /// inode, else a SQLite database (by its header) or a file named as a companion beside one. `nil` for anything
    /// else; only a regular file can be one: a device or a pipe is never the store's.
    func storeFile(openAs descriptor: Int32) -> (name: String, store: String)? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let identity = FileIdentity(descriptor: descriptor) else { return nil }
        if let companion = Self.companions.first(where: { FileIdentity(path: store.path + $0.suffix) == identity }) {
            return (companion.name, store.path)
        }
        guard let path = Self.path(openAs: descriptor) else { return nil }
        for (suffix, name) in Self.companions where path.hasSuffix(suffix) {
            let database = String(path.dropLast(suffix.count))
            if Self.beginsWithSQLiteHeader(database) {
                return (suffix.isEmpty ? "a SQLite database" : name.replacingOccurrences(of: "the store's", with: "a store's"), database)
            }
        }
        return nil
    }

    private static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Whether the file at `path` begins as every SQLite database does, read through a descriptor of its own
    /// (standard output may be open write-only).
    private static func beginsWithSQLiteHeader(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: sqliteHeader.count)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count == header.count && header == sqliteHeader
    }

    /// The path `descriptor` was opened by, as the system keeps it; `nil` when it cannot say.
    private static func path(openAs descriptor: Int32) -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        var buffer = [CChar](repeating: 0, count: Int(MAXPATHLEN))
        guard fcntl(descriptor, F_GETPATH, &buffer) != -1 else { return nil }
        return String(cString: buffer)
        #endif
    }

    /// The path with its folder's symbolic links and `.`/`..` resolved, and the last component's link followed
    /// when it is one; for a file that does not exist yet, the path it would have.
    static func canonicalPath(_ url: URL) -> String {
        if let resolved = realPath(url.path) { return resolved }
        let folder = realPath(url.deletingLastPathComponent().path) ?? url.deletingLastPathComponent().standardizedFileURL.path
        let name = url.lastPathComponent
        // A link to a file that does not exist yet still names where the output would land.
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
            let targetURL = target.hasPrefix("/") ? URL(fileURLWithPath: target)
                : URL(fileURLWithPath: folder).appendingPathComponent(target)
            return targetURL.standardizedFileURL.path
        }
        return URL(fileURLWithPath: folder).appendingPathComponent(name).path
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// A file's device and inode: two paths with the same identity are the same file.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path`, following symbolic links, or `nil` when there is none.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    /// The identity of the file open as `descriptor`.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
