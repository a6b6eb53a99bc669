import Foundation
import PracticeLog
import StillpointCore

/// The store a report reads when the user names none: a SQLite file created on first use from a demo history,
/// so that the first run prints a real report with nothing to prepare.
///
/// It lives in `$STILLPOINT_HOME`, else `$XDG_DATA_HOME/stillpoint`, else `~/.local/share/stillpoint`.
public enum DefaultStore {
    /// How many sessions the demo history of a new default store holds: about four years of practice.
    public static let demoSessions = 2_400

    /// The folder of the default store.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["STILLPOINT_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("stillpoint", isDirectory: true)
        }
        return FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent(".local/share/stillpoint", isDirectory: true)
    }

    /// The default store's file.
    public static func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        directory(environment: environment).appendingPathComponent("practice.sqlite")
    }

    /// Opens the default store, creating it with a demo history ending now when it does not exist yet.
    ///
    /// The demo store is written beside the final file and moved in place only when complete, so an
    /// interrupted first run leaves nothing half made. Returns the container and whether it was just created.
    public static func open(environment: [String: String] = ProcessInfo.processInfo.environment,
                            now: Date = Date()) async throws -> (container: PersistentContainer, created: Bool) {
        let url = url(environment: environment)
        guard !FileManager.default.fileExists(atPath: url.path) else {
            return (try PersistentContainer(schema: Session.schema, location: .file(url)), false)
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let partial = url.deletingLastPathComponent().appendingPathComponent("practice.partial-\(UUID().uuidString).sqlite")
        do {
            let container = try PersistentContainer(schema: Session.schema, location: .file(partial))
            try await DemoHistory(sessions: demoSessions, years: 4, endingAt: now).write(to: container)
            try container.close()
            try FileManager.default.moveItem(at: partial, to: url)
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial.path + suffix) }
        } catch {
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: partial.path + suffix)
            }
            throw error
        }
        return (try PersistentContainer(schema: Session.schema, location: .file(url)), true)
    }
}
