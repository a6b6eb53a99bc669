import Foundation

/// The resident memory of the process, from `/proc/self/status` (Linux), in MiB.
///
/// The suite reads it here because `ResourceUsage` once split the `VmHWM:` line on spaces only (the kernel puts
/// a tab after the colon) and returned `nil`; it splits on whitespace now. The peak is reset with
/// `ResourceUsage.resetPeak()`.
enum ProcessMemory {
    /// The peak resident size since the last reset (`VmHWM`).
    static func peakMegabytes() -> Double? { field("VmHWM") }

    /// The resident size now (`VmRSS`).
    static func residentMegabytes() -> Double? { field("VmRSS") }

    private static func field(_ name: String) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return number.flatMap { Double($0) }.map { $0 / 1_024 }
        }
        return nil
    }
}
