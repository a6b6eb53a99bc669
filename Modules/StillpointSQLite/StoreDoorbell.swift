import Dispatch
import Foundation
import StillpointCore
#if canImport(Glibc)
import Glibc
#endif

/// The doorbell of a SQLite store file: an empty file beside it (`store.sqlite-doorbell`) that every Stillpoint
/// writer opens and closes after each commit (``ring(for:)``), and that a watcher of other processes' commits
/// watches with Linux's inotify (``rings(for:)``), so that it wakes within milliseconds of a commit rather than
/// at its next poll.
///
/// The doorbell is rung after the commit, never before: a watcher woken by it always finds the commit. (The WAL
/// itself is written before the commit is visible to readers, so a watch on it could wake a reader too early.)
/// The folder is watched, not the file, so the doorbell may be made after the watch starts. Where inotify is not
/// available, or the folder cannot be written (the doorbell cannot be made there), the store's polling still
/// brings every commit; so does it for writers on other machines of a network file system.
///
/// ```swift
/// StoreDoorbell.ring(for: url)                                  // after a commit
/// if let rings = StoreDoorbell.rings(for: url) { for await _ in rings { ... } }
/// ```
enum StoreDoorbell {
    /// The doorbell's path for the store at `url`.
    static func url(for store: URL) -> URL {
        store.deletingLastPathComponent().appendingPathComponent(store.lastPathComponent + "-doorbell")
    }

    /// Rings the doorbell of the store at `url`: opens it for writing (making it if needed) and closes it, which
    /// inotify reports as a close after writing. Best effort: a folder that cannot be written only means polling.
    static func ring(for url: URL) {
        #if canImport(Glibc)
        let descriptor = open(Self.url(for: url).path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
        if descriptor >= 0 { close(descriptor) }
        #endif
    }

    /// One element each time the doorbell of the store at `url` rings (rings not yet taken are merged), or `nil`
    /// when inotify cannot watch its folder.
    static func rings(for url: URL) -> AsyncStream<Void>? {
        #if canImport(Glibc)
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, url.deletingLastPathComponent().path, UInt32(IN_CLOSE_WRITE)) >= 0 else {
            close(descriptor)
            return nil
        }
        let name = Self.url(for: url).lastPathComponent
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: DispatchQueue(label: "stillpoint.sqlite.doorbell"))
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            source.setEventHandler {
                if Self.drain(descriptor).contains(name) { continuation.yield() }
            }
            source.setCancelHandler {
                close(descriptor)
                continuation.finish()
            }
            // Cancelling a dispatch source is safe from any thread; the lock only carries it across.
            let cancellable = LockedState(source)
            continuation.onTermination = { _ in cancellable.withLock { $0.cancel() } }
            source.resume()
        }
        #else
        return nil
        #endif
    }

    #if canImport(Glibc)
    /// Reads every event waiting on `descriptor` and returns the names of the files they concern.
    private static func drain(_ descriptor: Int32) -> Set<String> {
        var names: Set<String> = []
        let headerSize = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return names }
            var offset = 0
            while offset + headerSize <= count {
                let nameLength = buffer.withUnsafeBytes { bytes in
                    Int(bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len)
                }
                let nameStart = offset + headerSize
                let nameEnd = min(nameStart + nameLength, count)
                // The name is NUL-padded to its length.
                let name = buffer[nameStart..<nameEnd].prefix { $0 != 0 }
                names.insert(String(decoding: name, as: UTF8.self))
                offset = nameEnd
            }
        }
    }
    #endif
}
