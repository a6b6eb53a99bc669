import Foundation
import PracticeLog
import StillpointCore
import StillpointSQLite

// The new SQLite store of `demo` and of the default store: here, so that PracticeLog links no SQLite.
extension DemoHistory {
    /// Writes the history into a new store at `url`, built in `partial` (a file beside it) and moved into place
    /// only when complete, so that a failed or interrupted write never leaves a half-written store at `url`.
    ///
    /// The move never replaces a store another process made at `url` meanwhile: that is an error, and the
    /// partial file is removed either way.
    ///
    /// ```swift
    /// try await DemoHistory(sessions: 5_000, years: 4, endingAt: Date())
    ///     .writeNewStore(at: url, partial: url.deletingLastPathComponent().appendingPathComponent(".demo.partial"))
    /// ```
    @discardableResult
    public func writeNewStore(at url: URL, partial: URL, practitioner: String = Practitioner.defaultID) async throws -> Int {
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: partial.path + suffix) }
        }
        let container = try PersistentContainer(schema: Session.schema, location: .file(partial))
        let written: Int
        do {
            written = try await write(to: container, practitioner: practitioner)
        } catch {
            try? container.close()
            throw error
        }
        try container.close()
        // A hard link, not a rename: it fails instead of replacing a store that appeared meanwhile.
        guard link(partial.path, url.path) == 0 else {
            let code = errno
            throw CocoaError(code == EEXIST ? .fileWriteFileExists : .fileWriteUnknown, userInfo: [
                NSFilePathErrorKey: url.path,
                NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code)),
            ])
        }
        return written
    }
}
