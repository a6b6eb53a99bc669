import Foundation

/// The file an export writes: a temporary file beside the destination, buffered, renamed over the
/// destination only once everything is written, and removed otherwise.
///
/// Used on one context's executor only, so it is not `Sendable`.
final class ExportFile {
    let destination: URL
    let temporaryURL: URL
    private let handle: FileHandle
    private var buffer = ""
    private var isClosed = false
    /// Large enough that the system call cost vanishes, small enough that memory stays flat.
    private static let flushThreshold = 1 << 18

    /// Creates the temporary file in the destination's folder, so that the final rename stays on one volume.
    init(destination: URL) throws {
        self.destination = destination
        let folder = destination.deletingLastPathComponent()
        temporaryURL = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        guard FileManager.default.createFile(atPath: temporaryURL.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporaryURL.path])
        }
        handle = try FileHandle(forWritingTo: temporaryURL)
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    deinit {
        // An export that did not commit (cancelled, failed) leaves nothing behind.
        discard()
    }

    /// The buffer to append to; call ``flushIfNeeded()`` after appending.
    func append(_ text: String) {
        buffer += text
    }

    func withBuffer(_ body: (inout String) -> Void) {
        body(&buffer)
    }

    func flushIfNeeded() throws {
        if buffer.utf8.count >= Self.flushThreshold { try flush() }
    }

    /// Writes what is left and moves the file over the destination (replacing it) in one rename.
    func commit() throws {
        try flush()
        try handle.synchronize()
        try handle.close()
        isClosed = true
        guard rename(temporaryURL.path, destination.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporaryURL)
            throw CocoaError(.fileWriteUnknown, userInfo: [
                NSFilePathErrorKey: destination.path,
                NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
            ])
        }
    }

    /// Closes and removes the temporary file, unless it was committed.
    func discard() {
        guard !isClosed else { return }
        isClosed = true
        try? handle.close()
        try? FileManager.default.removeItem(at: temporaryURL)
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: Data(buffer.utf8))
        buffer.removeAll(keepingCapacity: true)
    }
}
