import Foundation

/// The fuzzer's input as a file, for parsers whose public entry point reads a file (the importers).
///
/// One file per process, rewritten for every input, in `/dev/shm` where there is one so that no run touches
/// the disk. libFuzzer calls its target on one thread, so one file is enough.
///
/// ```swift
/// let url = try InputFile.shared.write(UnsafeRawBufferPointer(start: start, count: count))
/// ```
public final class InputFile: Sendable {
    public static let shared = InputFile()

    public let url: URL

    private init() {
        let folder = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        url = URL(fileURLWithPath: folder).appendingPathComponent("stillpoint-fuzz-\(getpid())")
    }

    /// Replaces the file's contents with `bytes` and returns its URL.
    public func write(_ bytes: UnsafeRawBufferPointer) throws -> URL {
        try Data(bytes).write(to: url)
        return url
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
