import Foundation

/// The process's memory use, from `/proc/self/status` (Linux).
///
/// ```swift
/// ResourceUsage.resetPeak()
/// try await importEverything()
/// let peak = ResourceUsage.peakResidentMegabytes()   // VmHWM, in MiB
/// ```
enum ResourceUsage {
    /// The peak resident set size (`VmHWM`) in MiB, or `nil` where `/proc` is not available.
    static func peakResidentMegabytes() -> Double? {
        statusField("VmHWM").map { $0 / 1024 }
    }

    /// The current resident set size (`VmRSS`) in MiB.
    static func residentMegabytes() -> Double? {
        statusField("VmRSS").map { $0 / 1024 }
    }

    /// Resets the peak to the current resident size (writes `5` to `/proc/self/clear_refs`, Linux 4.0 and later),
    /// so that a measurement's peak is its own. Returns whether the kernel accepted it.
    @discardableResult
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    /// CPU seconds the whole process has used (all threads, user and system): unlike wall time, barely
    /// affected by other processes competing for the cores.
    static func processCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// A `kB` field of `/proc/self/status`, in KiB.
    ///
    /// The kernel writes `VmHWM:\t    2176 kB`: a tab, then spaces, so the number is found by splitting on
    /// whitespace of either kind.
    private static func statusField(_ name: String) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return number.flatMap { Double($0) }
        }
        return nil
    }
}
