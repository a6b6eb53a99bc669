import Foundation
import StillpointCore

/// Folders for the tests' store files, under one folder per test process that is removed when the process exits.
enum TestScratch {
    private static let root: Result<URL, any Error> = Result {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("stillpoint-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        rootPath.withLock { $0 = url.path }
        atexit {
            guard let path = TestScratch.rootPath.withLock({ $0 }) else { return }
            try? FileManager.default.removeItem(atPath: path)
        }
        return url
    }

    /// The root folder to remove at exit.
    private static let rootPath = LockedState<String?>(nil)

    /// A new empty folder.
    static func newDirectory() throws -> URL {
        let url = try root.get().appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
