import Foundation
import StillpointCore

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

    /// Refuses standard output or standard error opened onto the store or one of its companions, by device and
    /// inode, whatever the redirection (`> s.sqlite`, `1<> s.sqlite`, `>> s.sqlite-wal`, a link): text written
    /// there would destroy the sessions. Called before anything is written.
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
                Output.print("Error: standard error is \(errorFile) (\(store.path)); writing there would destroy the sessions "
                             + "in it, so nothing was done. Redirect standard error to another file")
            }
            throw ExitStatus.cannotCreate.exitCode
        }
        if let outputFile {
            throw ToolFailure("standard output is \(outputFile) (\(store.path)); writing there would destroy the sessions in "
                              + "it, so nothing was done. Redirect standard output to another file", status: .cannotCreate)
        }
    }

    /// Which of the store's files `descriptor` is open on ("the store", "the store's write-ahead log", ...), or
    /// `nil`. Only a regular file can be one: a device or a pipe is never the store's.
    func storeFile(openAs descriptor: Int32) -> String? {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let identity = FileIdentity(descriptor: descriptor) else { return nil }
        return Self.companions.first { FileIdentity(path: store.path + $0.suffix) == identity }?.name
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
