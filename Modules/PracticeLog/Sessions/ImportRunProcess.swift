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
    /// host, a record this release does not read, or a live process whose start time cannot be read (`/proc`
    /// mounted with `hidepid`, or no `/proc` at all): a run still going must never be taken for a killed one.
    ///
    /// - Parameter processes: where the processes' `stat` files are; tests name a folder without them.
    public static func isGone(_ recorded: String, processes: String = "/proc") -> Bool {
        let parts = recorded.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, parts[0] == hostName, let pid = pid_t(parts[1], radix: 10), pid > 0 else { return false }
        // Signal 0 only asks: ESRCH is no such process; EPERM is a live process of another user.
        if kill(pid, 0) != 0 { return errno == ESRCH }
        // Alive under that id: gone only if the id now belongs to a process that started later.
        guard !parts[2].isEmpty, let start = startTime(of: pid, in: processes) else { return false }
        return start != parts[2]
    }

    /// The host's name as the system knows it (`gethostname`), never looked up through DNS, which may be slow or
    /// answer differently from one run to the next.
    private static let hostName: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        // One byte short of the buffer, so that the name always ends with the NUL it was filled with.
        guard gethostname(&buffer, buffer.count - 1) == 0, let name = String(utf8String: buffer) else { return "localhost" }
        return name.replacingOccurrences(of: " ", with: "_")
    }()

    /// Field 22 of `/proc/PID/stat`, the process's start time; `nil` when it cannot be read.
    private static func startTime(of pid: Int32, in processes: String = "/proc") -> String? {
        guard let stat = try? String(contentsOfFile: "\(processes)/\(pid)/stat", encoding: .utf8),
              let end = stat.lastIndex(of: ")") else { return nil }
        // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 19 ? String(fields[19]) : nil
    }
}
