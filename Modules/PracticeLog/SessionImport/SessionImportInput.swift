import Foundation

/// What a ``SessionImport`` reads: the file named, or standard input (or the pipe or device a file names, or the
/// chunks of an HTTP request's body) copied to a temporary file that is unlinked as soon as it is made, so that nothing is left behind however
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
        let (output, descriptor) = try Self.makeCopy(in: FileManager.default.temporaryDirectory)
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

    /// Copies the byte chunks of `chunks` as they come (an HTTP request's body), refusing more than `limit` bytes:
    /// the copy made so far is closed, and with it gone, before the error is thrown.
    ///
    /// ```swift
    /// let input = try await SessionImportInput(spooling: request.body.map { $0.readableBytesView }, limit: 64 << 20)
    /// ```
    ///
    /// - Parameter directory: where the copy is made (and at once unlinked); the temporary directory by default.
    /// - Throws: ``SessionImportError/bodyTooLarge(limit:)`` past `limit`; ``SessionImportError/cannotKeepStandardInput(path:reason:)``
    ///   when no copy can be made; the sequence's errors.
    public init<Chunks: AsyncSequence>(spooling chunks: Chunks, limit: Int,
                                       directory: URL = FileManager.default.temporaryDirectory) async throws
    where Chunks.Element: Sequence, Chunks.Element.Element == UInt8 {
        let (output, descriptor) = try Self.makeCopy(in: directory)
        var kept = 0
        for try await chunk in chunks {
            let bytes = Data(chunk)
            kept += bytes.count
            guard kept <= limit else { throw SessionImportError.bodyTooLarge(limit: limit) }
            try output.write(contentsOf: bytes)
        }
        url = URL(fileURLWithPath: "/proc/self/fd/\(descriptor)")
        copy = output
    }

    /// A new file in `directory`, open for reading and writing and already unlinked, so that nothing is left behind
    /// however the process ends; it is gone once its handle closes.
    private static func makeCopy(in directory: URL) throws -> (FileHandle, Int32) {
        let path = directory.appendingPathComponent("stillpoint-stdin-\(UUID().uuidString)").path
        let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SessionImportError.cannotKeepStandardInput(path: path, reason: String(cString: strerror(errno)))
        }
        unlink(path)
        return (FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), descriptor)
    }

    /// Whether this is a copy of standard input (or of a pipe) rather than the file itself.
    public var isCopy: Bool { copy != nil }
}
