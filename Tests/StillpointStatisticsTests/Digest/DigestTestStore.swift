import Foundation
import PracticeLog
import StillpointCore
import StillpointSQLite
import StillpointStatistics

/// A file store of varied sessions for the digest's tests: zones with and without clock changes, sessions with
/// no zone, several kinds and sources, whole-second and fractional durations, and rows no statistic counts.
struct DigestTestStore {
    let directory: URL
    let container: PersistentContainer

    static let zones: [String?] = [nil, "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Etc/UTC"]
    static let kinds = ["meditation", "yoga", "Yoga", "breathwork", "méditation"]
    static let asOf = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z

    init(sessions: Int, seed: UInt64 = 7) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("digest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        container = try PersistentContainer(schema: Session.schema, location: .file(directory.appendingPathComponent("store.sqlite")))
        try await Self.insert(sessions, seed: seed, keyPrefix: "s", into: container)
    }

    /// Inserts `count` random sessions (keys `prefix-N`) and returns their IDs.
    @discardableResult
    static func insert(_ count: Int, seed: UInt64, keyPrefix: String, into container: PersistentContainer) async throws -> [ObjectID] {
        try await container.performBackgroundTask { context in
            var generator = SeededGenerator(seed: seed)
            var objects: [ManagedObject] = []
            let practitioner = try Practitioners.object(Practitioner.defaultID, in: context)
            for index in 0..<count {
                let session = context.insert(Session.self)
                try session.set(Session.practitioner, to: practitioner)
                // Three years before as_of, and a few sessions after it.
                session[Session.start] = asOf.addingTimeInterval(-Double(Int.random(in: 0...(3 * 365 * 86_400), using: &generator))
                                                                  + (index % 97 == 0 ? 86_400 : 0))
                let minutes = Double(Int.random(in: 1...90, using: &generator))
                session[Session.duration] = index % 13 == 0 ? minutes * 60 + 0.25 : minutes * 60
                session[Session.kind] = kinds[Int.random(in: 0..<kinds.count, using: &generator)]
                session[Session.source] = index % 3 == 0 ? "insight-timer" : "manual"
                session[Session.timeZone] = zones[Int.random(in: 0..<zones.count, using: &generator)]
                session[Session.key] = "\(keyPrefix)-\(index)"
                objects.append(session)
            }
            try await context.save()
            return objects.map(\.objectID)
        }
    }

    func remove() {
        try? container.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A digest read now.
    func digest() async throws -> SessionDigest {
        try await container.performBackgroundTask { context in
            try context.withPinnedSnapshot { try SessionDigest(in: context) }
        }
    }
}
