import Foundation
import ZIPFoundation

/// Streams one entry of a ZIP archive, decompressing it block by block on a thread of its own.
final class ZipEntryChunkSource: ByteChunkSource {
    private let channel = ChunkChannel()

    /// Starts decompressing `entryPath` of the archive at `archiveURL`.
    init(archiveURL: URL, entryPath: String, chunkSize: Int = FileChunkSource.defaultChunkSize) {
        let channel = self.channel
        // A plain thread, not a task: it blocks while the reader is behind, which must not tie up the
        // cooperative pool.
        let thread = Thread {
            do {
                let archive = try Archive(url: archiveURL, accessMode: .read)
                guard let entry = archive[entryPath] else {
                    throw ImportReadError(path: archiveURL.path, line: nil,
                                          reason: "the archive no longer holds \(entryPath)",
                                          suggestion: "Check that the file was not replaced while importing.")
                }
                let checksum = try archive.extract(entry, bufferSize: chunkSize) { data in
                    try channel.put([UInt8](data))
                }
                guard checksum == entry.checksum else {
                    throw ImportReadError(path: archiveURL.path, line: nil,
                                          reason: "the checksum of \(entryPath) does not match: the archive is damaged",
                                          suggestion: "Export the data from Apple Health again.")
                }
                channel.finish()
            } catch {
                channel.finish(throwing: error)
            }
        }
        thread.name = "Stillpoint ZIP reader"
        thread.start()
    }

    deinit {
        // Ends the thread if the reader stops early.
        channel.cancel()
    }

    func nextChunk() throws -> [UInt8]? {
        try channel.take()
    }
}
