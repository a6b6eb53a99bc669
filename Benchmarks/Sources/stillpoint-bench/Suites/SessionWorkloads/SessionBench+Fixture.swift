import Foundation
import Synchronization

extension SessionBench {
    /// Stores of N generated rows (see ``SessionBench/makeStore(rows:in:)``), built once per size per process
    /// and shared by the measurements that only read them or copy them first. Their folders are removed when the
    /// process exits.
    actor Fixture {
        static let shared = Fixture()

        private var stores: [Int: TemporaryDirectory] = [:]

        /// The folder whose `raw.sqlite` holds rows `0 ..< rows`, built on first use.
        func directory(rows: Int) throws -> TemporaryDirectory {
            if let directory = stores[rows] { return directory }
            let directory = try TemporaryDirectory()
            Fixture.removeAtExit(directory)
            _ = try SessionBench.makeStore(rows: rows, in: directory)
            stores[rows] = directory
            return directory
        }

        /// `raw.sqlite` with rows `0 ..< rows`, copied into `directory` under `name` for a measurement that writes.
        func copy(rows: Int, into directory: TemporaryDirectory, as name: String) throws -> URL {
            let source = try self.directory(rows: rows).url.appendingPathComponent("raw.sqlite")
            let destination = directory.url.appendingPathComponent(name)
            try FileManager.default.copyItem(at: source, to: destination)
            return destination
        }

        private static let folders = Mutex<[TemporaryDirectory]>([])

        /// Removes `directory` when the process exits.
        static func removeAtExit(_ directory: TemporaryDirectory) {
            let first = folders.withLock { folders in
                folders.append(directory)
                return folders.count == 1
            }
            if first {
                atexit {
                    for folder in Fixture.folders.withLock({ $0 }) { folder.remove() }
                }
            }
        }
    }
}
