import CCallgrind

/// Times the measured part of a workload, and nothing else.
///
/// ```swift
/// let seconds = try await Stopwatch.seconds { try await work() }
/// ```
///
/// Under `valgrind --tool=callgrind`, each timed region is also counted on its own: the counters are zeroed
/// before it and dumped after it, the dump labelled with the place that timed it (`Seed004Suite.swift:39`), so
/// that each side's instruction count can be read from its dump (see the README's "Instruction counts").
enum Stopwatch {
    static func seconds(_ label: String = "\(#fileID):\(#line)", _ work: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        stillpoint_bench_callgrind_zero()
        let start = clock.now
        try await work()
        let seconds = (clock.now - start).seconds
        stillpoint_bench_callgrind_dump(label)
        return seconds
    }

    static func seconds(_ label: String = "\(#fileID):\(#line)", _ work: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        stillpoint_bench_callgrind_zero()
        let start = clock.now
        try work()
        let seconds = (clock.now - start).seconds
        stillpoint_bench_callgrind_dump(label)
        return seconds
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
