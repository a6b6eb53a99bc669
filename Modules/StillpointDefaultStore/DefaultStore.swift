import Foundation
import PracticeLog
import StillpointCore
import StillpointSQLite

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

    /// The prefix of the files a store being created is written to, beside the default store.
    static let partialPrefix = "practice.partial-"

    /// Opens the default store, creating it with a demo history ending now when it does not exist yet.
    ///
    /// The demo store is written beside the final file and renamed into place only when complete, so an
    /// interrupted first run leaves nothing half made. Creation holds a lock file (`practice.lock`), so several
    /// first runs at once make one store and the others wait for it and read it; the holder first removes the
    /// partial files of runs that were killed. Returns the container and whether this call created the store.
    ///
    /// ```swift
    /// let (container, created) = try await DefaultStore.open(access: .readOnly)
    /// ```
    public static func open(environment: [String: String] = ProcessInfo.processInfo.environment,
                            now: Date = Date(),
                            access: StoreAccess = .readWrite) async throws -> (container: PersistentContainer, created: Bool) {
        let url = url(environment: environment)
        let directory = url.deletingLastPathComponent()
        var created = false
        let exists = FileManager.default.fileExists(atPath: url.path)
        if !exists || !partials(in: directory).isEmpty {
            if !exists {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            }
            // An existing store in a folder that cannot be written is read as it is: no lock, no clean-up.
            if let lock = try await CreationLock(directory: directory, required: !exists) {
                defer { lock.release() }
                // Whoever made these held the lock, and is gone: they are the remains of a killed first run.
                for partial in partials(in: directory) {
                    try? FileManager.default.removeItem(at: directory.appendingPathComponent(partial))
                }
                if !FileManager.default.fileExists(atPath: url.path) {
                    try await create(url, now: now)
                    created = true
                }
            }
        }
        switch access {
        case .readWrite:
            return (try PersistentContainer(schema: Session.schema, location: .file(url)), created)
        case .readOnly:
            return (try PersistentContainer.reading(schema: Session.schema, url: url), created)
        }
    }

    /// Writes the demo store to a partial file, then moves it to `url`.
    private static func create(_ url: URL, now: Date) async throws {
        let partial = url.deletingLastPathComponent()
            .appendingPathComponent("\(partialPrefix)\(getpid())-\(UUID().uuidString.prefix(8)).sqlite")
        try await DemoHistory(sessions: demoSessions, years: 4, endingAt: now).writeNewStore(at: url, partial: partial)
    }

    /// The names of the partial files (and their `-wal`, `-shm`) in `directory`: a first run's work in progress,
    /// or the remains of one that was killed.
    ///
    /// ```swift
    /// let leftovers = DefaultStore.partials(in: DefaultStore.directory())
    /// ```
    public static func partials(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { $0.hasPrefix(partialPrefix) }
    }

    /// An exclusive `flock` on `practice.lock` in the store's folder, released when the process ends in any way.
    private struct CreationLock {
        let descriptor: Int32

        /// Waits for the lock, polling so that a wait never blocks a thread of the concurrency pool (another
        /// task of this process may hold the lock and need one to finish). `nil` when the lock file cannot be
        /// made and `required` is false.
        init?(directory: URL, required: Bool) async throws {
            let path = directory.appendingPathComponent("practice.lock").path
            let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                guard required else { return nil }
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR else {
                    close(descriptor)
                    guard required else { return nil }
                    throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path])
                }
                do {
                    try await Task.sleep(for: .milliseconds(20))
                } catch {
                    close(descriptor)
                    throw error
                }
            }
            self.descriptor = descriptor
        }

        func release() {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }
}
