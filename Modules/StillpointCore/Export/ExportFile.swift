import Foundation

/// The file an export (or the tool's report) writes, in large chunks: for a regular file, a temporary file beside
/// the destination that is renamed over it only once everything is written, and removed otherwise; for standard
/// output, a device or a pipe, the destination itself (see ``OutputDestination``).
///
/// ```swift
/// let file = try ExportFile(destination: url)
/// var bytes: [UInt8] = []
/// // ... append rows to `bytes` ...
/// try file.writeIfFull(&bytes)   // after each row: writes and empties `bytes` past the threshold
/// try file.commit(&bytes)        // writes the rest, syncs, renames
/// ```
///
/// Used on one context's executor only, so it is not `Sendable`.
package final class ExportFile {
    package let destination: OutputDestination
    /// The file renamed over the destination at the end, if the destination is a regular file.
    let temporaryURL: URL?
    private let descriptor: Int32
    private var isClosed = false
    /// Large enough that the system call cost vanishes, small enough that memory stays flat.
    static let flushThreshold = 1 << 18

    /// Opens the destination; a temporary file goes in the destination's folder, so that the rename stays on one
    /// volume.
    convenience init(destination url: URL) throws {
        try self.init(destination: OutputDestination(path: url.path))
    }

    package init(destination: OutputDestination) throws {
        self.destination = destination
        (descriptor, temporaryURL) = try destination.open()
    }

    deinit {
        // An export that did not commit (cancelled, failed) leaves nothing behind.
        discard()
    }

    /// A buffer ready for rows: reserved a little beyond the threshold, so that it never grows.
    package static func makeBuffer() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(flushThreshold + 16_384)
        return bytes
    }

    /// Writes `bytes` and empties them (keeping their capacity) once they reach the threshold.
    @inline(__always)
    package func writeIfFull(_ bytes: inout [UInt8]) throws {
        if bytes.count >= Self.flushThreshold { try write(&bytes) }
    }

    /// Writes `bytes` to the file, straight from the array's storage, and empties them.
    package func write(_ bytes: inout [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw OutputDestination.failure(errno, destination.displayPath)
                }
                offset += written
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes what is left and, for a regular file, moves it over the destination (replacing it) in one rename.
    package func commit(_ bytes: inout [UInt8]) throws {
        try write(&bytes)
        isClosed = true
        guard let temporaryURL, case .replace(let target) = destination else {
            guard close(descriptor) == 0 else { throw OutputDestination.failure(errno, destination.displayPath) }
            return
        }
        let syncFailure = fsync(descriptor) == 0 ? 0 : errno
        let closeFailure = close(descriptor) == 0 ? 0 : errno
        if let code = [syncFailure, closeFailure].first(where: { $0 != 0 }) {
            unlink(temporaryURL.path)
            throw OutputDestination.failure(code, target.path)
        }
        guard rename(temporaryURL.path, target.path) == 0 else {
            let code = errno
            unlink(temporaryURL.path)
            throw OutputDestination.failure(code, target.path)
        }
    }

    /// Closes the file and removes the temporary one, unless it was committed.
    func discard() {
        guard !isClosed else { return }
        isClosed = true
        close(descriptor)
        if let temporaryURL { unlink(temporaryURL.path) }
    }
}
