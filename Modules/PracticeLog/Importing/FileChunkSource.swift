import Foundation

/// Reads a file in fixed-size blocks.
final class FileChunkSource: ByteChunkSource {
    /// 64 KiB: large enough that system calls don't dominate, small enough to keep memory flat.
    static let defaultChunkSize = 64 * 1024

    private let handle: FileHandle
    private let chunkSize: Int

    /// Opens `url`, turning "no such file" and the like into an ``ImportReadError`` that names the path.
    init(url: URL, chunkSize: Int = FileChunkSource.defaultChunkSize) throws {
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
        self.chunkSize = chunkSize
    }

    deinit {
        try? handle.close()
    }

    func nextChunk() throws -> [UInt8]? {
        guard let data = try handle.read(upToCount: chunkSize), !data.isEmpty else { return nil }
        return [UInt8](data)
    }

    /// The first `count` bytes of a file (fewer if it is shorter), to tell a ZIP from an XML file.
    static func prefix(of url: URL, count: Int) throws -> [UInt8] {
        let source = try FileChunkSource(url: url, chunkSize: count)
        return try source.nextChunk() ?? []
    }
}
