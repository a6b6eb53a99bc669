import Foundation

/// The process an import run runs in, as the run records it (`host pid start`), so that a later import can tell a
/// run that is still going from one that was killed: the run of a process that is gone will never finish.
///
/// ```swift
/// run[ImportRun.process] = ImportRunProcess.current
/// ImportRunProcess.isGone("studio 4242 918273")   // true once that process has ended, on this host
/// ```
public enum ImportRunProcess {
    /// This process: its host, id and start time (in clock ticks since boot, so that a reused id is not taken
    /// for it).
    public static let current: String = {
        let pid = getpid()
        return "\(hostName) \(pid) \(startTime(of: pid) ?? "")"
    }()

    /// Whether the process `recorded` names has ended. `false` when that cannot be told: a process of another
    /// host, or a record this release does not read.
    public static func isGone(_ recorded: String) -> Bool {
        let parts = recorded.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0] == hostName, let pid = pid_t(parts[1], radix: 10), pid > 0 else { return false }
        guard let start = startTime(of: pid) else { return true }
        return !parts[2].isEmpty && start != parts[2]
    }

    private static let hostName = ProcessInfo.processInfo.hostName.replacingOccurrences(of: " ", with: "_")

    /// Field 22 of `/proc/PID/stat`, the process's start time; `nil` when there is no such process.
    private static func startTime(of pid: Int32) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
    }
}
