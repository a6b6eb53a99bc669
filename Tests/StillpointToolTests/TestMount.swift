import Foundation
import StillpointChildProcess

/// File systems a test mounts for itself (a tiny tmpfs, a read-only bind mount), where the machine allows it:
/// as root, with `mount` working (not in every container). Each mount is undone by `unmount()`.
struct TestMount {
    let path: String

    /// Whether this process can mount: probed once with a small tmpfs, mounted and unmounted.
    static let available: Bool = {
        guard getuid() == 0, let probe = try? ToolRunner() else { return false }
        defer { probe.cleanUp() }
        let point = probe.path("probe")
        guard (try? FileManager.default.createDirectory(atPath: point, withIntermediateDirectories: true)) != nil,
              run(["-t", "tmpfs", "-o", "size=64k", "tmpfs", point]) else { return false }
        return run([point], tool: "/bin/umount")
    }()

    /// A tmpfs of `size` (such as "1m") at `path`, a new folder.
    static func tmpfs(at path: String, size: String) throws -> TestMount {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard run(["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]) else { throw Failure(description: "cannot mount a tmpfs at \(path)") }
        return TestMount(path: path)
    }

    /// `source`, seen read-only at `path`, a new folder.
    static func readOnlyBind(_ source: String, at path: String) throws -> TestMount {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        guard run(["--bind", source, path]) else { throw Failure(description: "cannot bind \(source) at \(path)") }
        let mount = TestMount(path: path)
        guard run(["-o", "remount,bind,ro", path]) else {
            mount.unmount()
            throw Failure(description: "cannot make \(path) read-only")
        }
        return mount
    }

    func unmount() {
        _ = Self.run([path], tool: "/bin/umount")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    @discardableResult
    private static func run(_ arguments: [String], tool: String = "/bin/mount") -> Bool {
        (try? ChildProcess(tool, arguments).waitUntilExit()) == .exited(0)
    }
}
