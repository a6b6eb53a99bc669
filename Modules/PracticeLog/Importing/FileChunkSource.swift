import Foundation

/// Reads a file in fixed-size blocks, from its start to its end, without seeking: a pipe reads as well as a
/// file.
///
/// The path ``standardInputPath`` (`/dev/stdin`) reads the process's standard input itself, so `import -`
/// works where that device cannot be opened by name (a socket), and the handle is left open for others.
///
/// ```swift
/// let source = try FileChunkSource(url: URL(fileURLWithPath: FileChunkSource.standardInputPath))
/// while let block = try source.nextChunk() { ... }
/// ```
final class FileChunkSource: ByteChunkSource {
    /// 64 KiB: large enough that system calls don't dominate, small enough to keep memory flat.
    static let defaultChunkSize = 64 * 1024
    /// The path that means standard input.
    static let standardInputPath = "/dev/stdin"

    private let handle: FileHandle
    private let ownsHandle: Bool
    private let chunkSize: Int

    /// Opens `url`, turning "no such file" and the like into an ``ImportReadError`` that names the path.
    init(url: URL, chunkSize: Int = FileChunkSource.defaultChunkSize) throws {
        self.chunkSize = chunkSize
        if url.path == Self.standardInputPath {
            handle = FileHandle.standardInput
            ownsHandle = false
            return
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ImportReadError(path: url.path, line: nil, reason: "the file does not exist",
                                  suggestion: "Check the path and try again.")
        }
        guard !isDirectory.boolValue else {
            throw ImportReadError(path: url.path, line: nil, reason: "it is a folder, not a file",
                                  suggestion: "Give the path of the exported file inside it.")
        }
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw ImportReadError(path: url.path, line: nil,
                                  reason: "the file cannot be opened (\(error.localizedDescription))",
                                  suggestion: "Check that you may read it, then try again.")
        }
        ownsHandle = true
    }

    deinit {
        if ownsHandle { try? handle.close() }
    }

    func nextChunk() throws -> [UInt8]? {
        guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else { return nil }
        return [UInt8](data)
    }

    /// Whether the input is a regular file, which can be read again from its start (a pipe cannot).
    var isRegularFile: Bool {
        var info = stat()
        guard fstat(handle.fileDescriptor, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFREG
    }
}
