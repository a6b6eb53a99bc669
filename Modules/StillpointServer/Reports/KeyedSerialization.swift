import Foundation

/// Runs the work of one key at a time, in order of arrival, and the work of different keys at once: one
/// practitioner's reports are made one after another, as ``PractitionerReports`` asks.
///
/// ```swift
/// let report = try await serialization.run("alice") { try await reports.report(for: "alice", ...) }
/// ```
actor KeyedSerialization {
    private var busy: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    func run<T: Sendable>(_ key: String, _ work: @Sendable () async throws -> T) async throws -> T {
        await acquire(key)
        do {
            let result = try await work()
            release(key)
            return result
        } catch {
            release(key)
            throw error
        }
    }

    private func acquire(_ key: String) async {
        guard busy.contains(key) else {
            busy.insert(key)
            return
        }
        await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    /// Hands the key to the next waiting, or frees it.
    private func release(_ key: String) {
        if var queue = waiting[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[key] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            busy.remove(key)
        }
    }
}
