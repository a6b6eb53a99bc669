import Foundation
import StillpointCore

/// A program started with `posix_spawn`, for the tests and their throwaway servers.
///
/// Not Foundation's `Process`: on Linux its `run()` lists `/proc/self/fd` and copies 256 bytes of every entry,
/// past the end of glibc's buffer when more than about 1,300 descriptors are open (a whole test suite's stores and
/// sockets), and the test process crashes now and then (swift-corelibs-foundation#5472, after Swift 6.3.1). Here
/// the child closes every descriptor above 2 itself (`closefrom`), and its pipes are close-on-exec in the parent.
///
/// ```swift
/// let result = try await ChildProcess.run("/usr/bin/env", ["printf", "hi"])
/// #expect(result.status == 0 && result.standardOutput == "hi")
/// ```
public final class ChildProcess: @unchecked Sendable {
    /// What the child reads.
    public enum Input: Sendable {
        case null
        /// A pipe: write to ``standardInput``.
        case pipe
        /// A file opened for reading (the shell's `< file`).
        case file(String)
    }

    /// Where the child writes, on its standard output or error.
    public enum Output: Sendable {
        case null
        /// Read into memory as it arrives, by a thread of its own: the child never stalls on a full pipe.
        case collected
        /// A pipe: read ``standardOutput`` yourself.
        case pipe
        /// A file, made or emptied.
        case file(String)
        /// A descriptor of this process, as it is (an open file's offset and mode stay).
        case descriptor(Int32)
        /// The standard output's destination (for the standard error only).
        case standardOutput
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// The shell's convention: the exit status, or 128 plus the signal.
        public var status: Int32 {
            switch self {
            case .exited(let status): status
            case .signalled(let signal): 128 + signal
            }
        }
    }

    /// A finished child's status and what it wrote.
    public struct Result: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String

        public init(status: Int32, standardOutput: String, standardError: String) {
            self.status = status
            self.standardOutput = standardOutput
            self.standardError = standardError
        }
    }

    public let processIdentifier: pid_t
    /// The write end of the child's standard input, with ``Input/pipe``.
    public let standardInput: FileHandle?
    /// The read end of the child's standard output, with ``Output/pipe``.
    public let standardOutput: FileHandle?
    private let outputCollector: OutputCollector?
    private let errorCollector: OutputCollector?
    private let ending = NSCondition()
    private var ended: Termination?
    private var waiters: [CheckedContinuation<Termination, Never>] = []

    /// Starts `executable` (a path, or a name looked up in `PATH`) with `arguments`, in `directory`, with
    /// `environment` (this process's when nil).
    public init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, directory: String? = nil,
                standardInput input: Input = .null, standardOutput output: Output = .null, standardError error: Output = .null) throws {
        var actions = SpawnActions()
        defer { actions.destroy() }
        var parentEnds: [Int32] = []
        defer { parentEnds.forEach { close($0) } }
        var inputWriter: FileHandle?
        switch input {
        case .null:
            actions.open(0, "/dev/null", O_RDONLY)
        case .pipe:
            let (read, write) = try Self.pipe()
            actions.duplicate(read, to: 0)
            parentEnds.append(read)
            inputWriter = FileHandle(fileDescriptor: write, closeOnDealloc: true)
        case .file(let path):
            actions.open(0, path, O_RDONLY)
        }
        var readers: [Int32: Int32] = [:]
        for (descriptor, destination) in [(Int32(1), output), (2, error)] {
            switch destination {
            case .null:
                actions.open(descriptor, "/dev/null", O_WRONLY)
            case .collected, .pipe:
                let (read, write) = try Self.pipe()
                actions.duplicate(write, to: descriptor)
                parentEnds.append(write)
                readers[descriptor] = read
            case .file(let path):
                actions.open(descriptor, path, O_WRONLY | O_CREAT | O_TRUNC)
            case .descriptor(let parent):
                actions.duplicate(parent, to: descriptor)
            case .standardOutput:
                actions.duplicate(1, to: descriptor)
            }
        }
        try actions.closeFrom(3)
        if let directory { try actions.changeDirectory(directory) }
        let environmentEntries = environment.map { $0.map { "\($0.key)=\($0.value)" } }
        processIdentifier = try actions.spawn(executable, arguments, environment: environmentEntries)
        standardInput = inputWriter
        func reader(_ descriptor: Int32, _ destination: Output) -> (collector: OutputCollector?, handle: FileHandle?) {
            guard let read = readers[descriptor] else { return (nil, nil) }
            let handle = FileHandle(fileDescriptor: read, closeOnDealloc: true)
            if case .collected = destination { return (OutputCollector(reading: handle), nil) }
            return (nil, handle)
        }
        (outputCollector, standardOutput) = reader(1, output)
        errorCollector = reader(2, error).collector
        let thread = Thread { [self] in reap() }
        thread.start()
    }

    /// Runs `executable` to its end and returns its status and what it wrote to its standard output and error.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           directory: String? = nil) async throws -> Result {
        try await ChildProcess(executable, arguments, environment: environment, directory: directory,
                               standardOutput: .collected, standardError: .collected).result()
    }

    /// Waits for the child's end and for its collected output to be read to the end.
    public func result() async -> Result {
        let termination = await exit()
        return Result(status: termination.status, standardOutput: await outputCollector?.allText() ?? "",
                      standardError: await errorCollector?.allText() ?? "")
    }

    /// ``result()``, blocking the calling thread (for synchronous callers only).
    public func waitForResult() -> Result {
        let termination = waitUntilExit()
        return Result(status: termination.status, standardOutput: outputCollector?.waitForAllText() ?? "",
                      standardError: errorCollector?.waitForAllText() ?? "")
    }

    /// The standard output so far, with ``Output/collected``.
    public var collectedOutput: String { outputCollector?.text ?? "" }

    /// The standard error so far, with ``Output/collected``.
    public var collectedError: String { errorCollector?.text ?? "" }

    /// How the child ended, or nil while it runs.
    public var termination: Termination? {
        ending.lock()
        defer { ending.unlock() }
        return ended
    }

    public var isRunning: Bool { termination == nil }

    /// Sends `signal` to the child, if it still runs.
    public func signal(_ signal: Int32) {
        ending.lock()
        defer { ending.unlock() }
        // Once reaped, the process id may be another process's.
        if ended == nil { kill(processIdentifier, signal) }
    }

    /// Waits for the child's end without holding a thread of the cooperative pool.
    @discardableResult
    public func exit() async -> Termination {
        await withCheckedContinuation { continuation in
            ending.lock()
            if let ended {
                ending.unlock()
                continuation.resume(returning: ended)
            } else {
                waiters.append(continuation)
                ending.unlock()
            }
        }
    }

    /// Waits for the child's end, blocking the calling thread (for synchronous callers only).
    @discardableResult
    public func waitUntilExit() -> Termination {
        ending.lock()
        defer { ending.unlock() }
        while true {
            if let ended { return ended }
            ending.wait()
        }
    }

    /// Waits up to `timeout` for the child's end, blocking the calling thread; nil if it still runs.
    public func waitUntilExit(within timeout: Duration) -> Termination? {
        let deadline = Date().addingTimeInterval(Double(timeout.components.seconds) + Double(timeout.components.attoseconds) * 1e-18)
        ending.lock()
        defer { ending.unlock() }
        while ended == nil, ending.wait(until: deadline) {}
        return ended
    }

    private func reap() {
        var status: Int32 = 0
        while waitpid(processIdentifier, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7f
        let termination: Termination = signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
        ending.lock()
        ended = termination
        let waiting = waiters
        waiters = []
        ending.broadcast()
        ending.unlock()
        waiting.forEach { $0.resume(returning: termination) }
    }

    /// A pipe whose two ends are closed on `exec` (the child gets its end through `dup2`, which clears that; the
    /// moment between `pipe` and `fcntl` does not matter, since every child closes what it did not ask for).
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Glibc.pipe(&ends) == 0 else {
            throw ChildProcessError(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}
