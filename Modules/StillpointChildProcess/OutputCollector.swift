import Foundation
import StillpointCore

/// Everything written to one pipe, read by a thread of its own as it arrives: the child never stalls on a
/// full pipe, and a test can look at the output so far while the child still runs.
final class OutputCollector: Sendable {
    private let state = LockedState((data: Data(), ended: false))

    init(reading handle: FileHandle) {
        let thread = Thread { [state] in
            // read(2) returns what has arrived; FileHandle.read(upToCount:) would wait for the whole count.
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(handle.fileDescriptor, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                state.withLock { $0.data.append(contentsOf: buffer[..<count]) }
            }
            state.withLock { $0.ended = true }
        }
        thread.start()
    }

    /// The output so far.
    var text: String { state.withLock { String(decoding: $0.data, as: UTF8.self) } }

    /// Whether the writer closed the pipe (the child exited) and everything was read.
    var ended: Bool { state.withLock { $0.ended } }

    /// Everything, once the writer closed the pipe.
    func allText() async -> String {
        while !ended { try? await Task.sleep(for: .milliseconds(1)) }
        return text
    }

    /// ``allText()``, blocking the calling thread.
    func waitForAllText() -> String {
        while !ended { usleep(1_000) }
        return text
    }
}
