import Foundation
import StillpointChildProcess
import Testing

@Suite("child processes")
struct ChildProcessTests {
    @Test func runCollectsBothStreamsAndTheStatus() async throws {
        let result = try await ChildProcess.run("/bin/sh", ["-c", "printf out; printf err >&2; exit 3"])
        #expect(result.status == 3)
        #expect(result.standardOutput == "out")
        #expect(result.standardError == "err")
    }

    @Test func aSignalledChildEndsWith128PlusTheSignal() async throws {
        let child = try ChildProcess("/bin/sleep", ["60"])
        #expect(child.isRunning)
        child.signal(SIGTERM)
        #expect(await child.exit() == .signalled(SIGTERM))
        #expect(child.waitUntilExit().status == 128 + SIGTERM)
        #expect(!child.isRunning)
    }

    @Test func aWaitWithADeadlineReturnsNilWhileTheChildRuns() throws {
        let child = try ChildProcess("/bin/sleep", ["60"])
        defer { child.signal(SIGKILL) }
        #expect(child.waitUntilExit(within: .milliseconds(50)) == nil)
    }

    @Test func theEnvironmentDirectoryAndInputAreTheGivenOnes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("input.txt").path
        try "from a file".write(toFile: input, atomically: true, encoding: .utf8)
        let child = try ChildProcess("/bin/sh", ["-c", #"printf '%s|%s|' "$GREETING" "$(pwd)"; cat"#], environment: ["GREETING": "hello"],
                                     directory: folder.path, standardInput: .file(input), standardOutput: .collected)
        let output = await child.result().standardOutput
        #expect(output == "hello|\(folder.resolvingSymlinksInPath().path)|from a file" || output == "hello|\(folder.path)|from a file")
    }

    @Test func aPipedInputReachesTheChild() async throws {
        let child = try ChildProcess("/bin/cat", [], standardInput: .pipe, standardOutput: .collected)
        try child.standardInput?.write(contentsOf: Data("piped".utf8))
        try child.standardInput?.close()
        #expect(await child.result().standardOutput == "piped")
    }

    /// The child gets standard input, output and error only: a descriptor this process left open (without
    /// close-on-exec) would keep a pipe's other end open, or a file locked, for as long as the child runs.
    @Test func theChildInheritsNoOtherDescriptor() async throws {
        let open = Foundation.open("/dev/null", O_RDONLY)
        #expect(open > 2)
        defer { close(open) }
        let result = try await ChildProcess.run("/bin/sh", ["-c", "[ -e /proc/self/fd/\(open) ] && echo inherited || echo closed"])
        #expect(result.standardOutput == "closed\n")
    }

    /// With more descriptors open than fit in one read of `/proc/self/fd` (where Foundation's `Process` crashes now
    /// and then), children still start and end.
    @Test func childrenStartWithThousandsOfDescriptorsOpen() async throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        let count = Int(min(limit.rlim_cur, 4_096)) - 200
        let descriptors = (0..<max(count, 0)).map { _ in Foundation.open("/dev/null", O_RDONLY | O_CLOEXEC) }.filter { $0 >= 0 }
        defer { descriptors.forEach { close($0) } }
        for index in 0..<20 {
            #expect(try await ChildProcess.run("/bin/sh", ["-c", "echo \(index)"]).standardOutput == "\(index)\n")
        }
    }
}
