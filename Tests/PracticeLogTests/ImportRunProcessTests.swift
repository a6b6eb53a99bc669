import Foundation
import StillpointChildProcess
import PracticeLog
import Testing

/// A run's process is gone only when it has ended: a live import, even one whose start time cannot be read, is
/// never taken for a killed one (whose run a later import may remove).
@Suite("import run processes")
struct ImportRunProcessTests {
    /// `host pid start` of a process that has ended.
    static func endedProcess() throws -> String {
        let process = try ChildProcess("/bin/sh", ["-c", "exit 0"])
        process.waitUntilExit()
        let parts = ImportRunProcess.current.split(separator: " ", omittingEmptySubsequences: false)
        return "\(parts[0]) \(process.processIdentifier) \(parts[2])"
    }

    @Test func thisProcessIsNotGoneEvenWhenItsStartTimeCannotBeRead() throws {
        #expect(!ImportRunProcess.isGone(ImportRunProcess.current))
        let unreadable = FileManager.default.temporaryDirectory.appendingPathComponent("no-proc-\(UUID().uuidString)").path
        #expect(!ImportRunProcess.isGone(ImportRunProcess.current, processes: unreadable))
    }

    @Test func anEndedProcessIsGone() throws {
        let unreadable = FileManager.default.temporaryDirectory.appendingPathComponent("no-proc-\(UUID().uuidString)").path
        let ended = try Self.endedProcess()
        #expect(ImportRunProcess.isGone(ended))
        #expect(ImportRunProcess.isGone(ended, processes: unreadable))
    }

    /// The id of a live process that started at another time belongs to another process: the recorded one is gone.
    @Test func aReusedProcessIDIsGone() {
        let parts = ImportRunProcess.current.split(separator: " ", omittingEmptySubsequences: false)
        #expect(ImportRunProcess.isGone("\(parts[0]) \(parts[1]) 1"))
        #expect(!ImportRunProcess.isGone("another-host \(parts[1]) 1"))
    }
}
