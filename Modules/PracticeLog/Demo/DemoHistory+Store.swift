import Foundation
import StillpointCore
import StillpointSQLite

extension DemoHistory {
    /// Writes the history into a store as the sessions of the practitioner `practitioner` (made if the store has
    /// none) in batches of `batchSize` rows, and returns how many sessions it wrote.
    ///
    /// Sessions whose key the practitioner already has are skipped, so writing the same history twice adds nothing.
    @discardableResult
    public func write(to container: PersistentContainer, practitioner: String = Practitioner.defaultID,
                      batchSize: Int = 5_000) async throws -> Int {
        let owner = try await Practitioners.rowID(of: practitioner, in: container)
        let context = container.newBackgroundContext(name: "demo")
        var written = 0
        var batch: [[String: AttributeValue]] = []
        batch.reserveCapacity(batchSize)
        func flush() async throws {
            let rows = batch
            batch.removeAll(keepingCapacity: true)
            written += try await context.perform { context in
                let keys = rows.compactMap { row -> String? in if case .string(let key)? = row["key"] { return key } else { return nil } }
                var existing: Set<String> = []
                var request = FetchRequest(Session.self, predicate: try FetchPredicate("practitioner._id == %@ AND key IN %@", owner, keys))
                request.properties = [.attribute("key")]
                try context.forEachRow(request) { values in
                    if case .string(let key) = values[0] { existing.insert(key) }
                }
                let fresh = rows.filter { row in
                    guard case .string(let key)? = row["key"] else { return false }
                    return !existing.contains(key)
                }
                return try await context.batchInsert(Session.entity, rows: fresh).count
            }
        }
        for record in self {
            var values = record.attributeValues
            values[Session.practitioner.name] = .integer(owner)
            batch.append(values)
            if batch.count == batchSize { try await flush() }
        }
        if !batch.isEmpty { try await flush() }
        return written
    }

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
