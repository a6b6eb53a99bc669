import Foundation

/// What a ``SessionImport`` reads: the file named, or standard input (or the pipe or device a file names)
/// copied to a temporary file that is unlinked as soon as it is made, so that nothing is left behind however
/// the process ends; the copy is read back through `/proc/self/fd` while this lives.
///
/// ```swift
/// let input = try SessionImport(file: "-", importer: AppleHealthImporter()).keepInput()
/// input.url   // /proc/self/fd/7, the copy
/// ```
public final class SessionImportInput: Sendable {
    /// The file to read: the one named, or the copy.
    public let url: URL
    /// The copy's open file, which keeps it while this lives; `nil` for a file read where it is.
    private let copy: FileHandle?

    /// The file at `url`, read where it is.
    init(file url: URL) {
        self.url = url
        self.copy = nil
    }

    /// Copies `source` (standard input when `nil`), refusing more than `limit` bytes.
    init(copying source: URL?, limit: Int) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-stdin-\(UUID().uuidString)").path
        let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SessionImportError.cannotKeepStandardInput(path: path, reason: String(cString: strerror(errno)))
        }
        unlink(path)
        let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var kept = 0
        let input = try source.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.standardInput
        defer { if source != nil { try? input.close() } }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            kept += chunk.count
            guard kept <= limit else { throw SessionImportError.standardInputTooLarge }
            try output.write(contentsOf: chunk)
        }
        url = URL(fileURLWithPath: "/proc/self/fd/\(descriptor)")
        copy = output
    }

    /// Whether this is a copy of standard input (or of a pipe) rather than the file itself.
    public var isCopy: Bool { copy != nil }
}
