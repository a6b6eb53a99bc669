import Foundation

/// The file an export writes: a temporary file beside the destination, written in large chunks, renamed over
/// the destination only once everything is written, and removed otherwise.
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
final class ExportFile {
    let destination: URL
    let temporaryURL: URL
    private let descriptor: Int32
    private var isClosed = false
    /// Large enough that the system call cost vanishes, small enough that memory stays flat.
    static let flushThreshold = 1 << 18

    /// Creates the temporary file in the destination's folder, so that the final rename stays on one volume.
    init(destination: URL) throws {
        self.destination = destination
        let folder = destination.deletingLastPathComponent()
        temporaryURL = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        descriptor = open(temporaryURL.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.failure(errno, destination) }
    }

    deinit {
        // An export that did not commit (cancelled, failed) leaves nothing behind.
        discard()
    }

    /// A buffer ready for rows: reserved a little beyond the threshold, so that it never grows.
    static func makeBuffer() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(flushThreshold + 16_384)
        return bytes
    }

    /// Writes `bytes` and empties them (keeping their capacity) once they reach the threshold.
    @inline(__always)
    func writeIfFull(_ bytes: inout [UInt8]) throws {
        if bytes.count >= Self.flushThreshold { try write(&bytes) }
    }

    /// Writes `bytes` to the file, straight from the array's storage, and empties them.
    func write(_ bytes: inout [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Foundation.write(descriptor, raw.baseAddress! + offset, raw.count - offset)  // swiftlint:disable:this force_unwrapping: not empty here
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.failure(errno, destination)
                }
                offset += written
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    /// Writes what is left and moves the file over the destination (replacing it) in one rename.
    func commit(_ bytes: inout [UInt8]) throws {
        try write(&bytes)
        guard fsync(descriptor) == 0 else { throw Self.failure(errno, destination) }
        isClosed = true
        guard close(descriptor) == 0 else {
            let code = errno
            unlink(temporaryURL.path)
            throw Self.failure(code, destination)
        }
        guard rename(temporaryURL.path, destination.path) == 0 else {
            let code = errno
            unlink(temporaryURL.path)
            throw Self.failure(code, destination)
        }
    }

    /// Closes and removes the temporary file, unless it was committed.
    func discard() {
        guard !isClosed else { return }
        isClosed = true
        close(descriptor)
        unlink(temporaryURL.path)
    }

    /// The error names the destination: the temporary file is not the person's business.
    private static func failure(_ code: Int32, _ url: URL) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [
            NSFilePathErrorKey: url.path,
            NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
        ])
    }
}
