/// Times the measured part of a workload, and nothing else.
///
/// ```swift
/// let seconds = try await Stopwatch.seconds { try await work() }
/// ```
enum Stopwatch {
    static func seconds(_ work: () async throws -> Void) async rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await work()
        return (clock.now - start).seconds
    }

    static func seconds(_ work: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try work()
        return (clock.now - start).seconds
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) * 1e-18
    }
}
