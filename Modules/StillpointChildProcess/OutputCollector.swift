import Foundation
import StillpointCore

/// Everything written to one pipe, read by a thread of its own as it arrives: the child never stalls on a
/// full pipe, and a test can look at the output so far while the child still runs.
final class OutputCollector: Sendable {
    private struct State {
        var data = Data()
        var ended = false
        /// The asynchronous waits for the end, resumed when the writer closes the pipe.
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = LockedState(State())
    /// Left when the writer closed the pipe and everything was read: what blocking waits wait on.
    private let reading = DispatchGroup()

    init(reading handle: FileHandle) {
        reading.enter()
        let thread = Thread { [state, reading] in
            // read(2) returns what has arrived; FileHandle.read(upToCount:) would wait for the whole count.
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(handle.fileDescriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                state.withLock { $0.data.append(contentsOf: buffer[..<count]) }
            }
            let waiting = state.withLock { state in
                state.ended = true
                defer { state.waiting = [] }
                return state.waiting
            }
            reading.leave()
            for continuation in waiting { continuation.resume() }
        }
        thread.start()
    }

    /// The output so far.
    var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }

    /// Whether the writer closed the pipe (the child exited) and everything was read.
    var ended: Bool { state.withLock { $0.ended } }

    /// Everything, once the writer closed the pipe.
    func allText() async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = state.withLock { state in
                if !state.ended { state.waiting.append(continuation) }
                return state.ended
            }
            if ended { continuation.resume() }
        }
        return text
    }

    /// ``allText()``, blocking the calling thread.
    func waitForAllText() -> String {
        reading.wait()
        return text
    }
}
