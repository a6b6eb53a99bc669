import Foundation
import StillpointManifest

extension LiveReports {
    /// The report of the practitioner `id` as of `asOf` (a request that pins the instant, as `report --as-of`
    /// does), made from their held digest and not held itself; `nil` when the store has no such practitioner.
    ///
    /// Its generation is that of the practitioner's held report: a client's copy of a pinned report is current as
    /// long as that generation is (the same data, and the same instant asked for).
    ///
    /// ```swift
    /// let march = try await reports.report(for: "alice", format: .markdown, asOf: ISO8601DateFormatter().date(from: "2024-03-15T12:00:00Z")!)
    /// ```
    public func report(for id: String, manifest name: String = defaultManifest, format: ReportFormat = .json,
                       asOf: Date) async throws -> LiveReport? {
        var pinned = try manifest(named: name)
        pinned.environment.asOf = asOf
        return try await report(for: id, using: pinned, named: name, format: format)
    }

    /// The report of the practitioner `id` made with `manifest`, one the service does not hold (a server's named
    /// manifest read from its file on each request, or one with its instant pinned), from the practitioner's held
    /// digest and not held itself; `nil` when the store has no such practitioner. Its generation is that of the
    /// practitioner's report held under `name`, as for ``report(for:manifest:format:asOf:)``.
    ///
    /// ```swift
    /// let yoga = try await reports.report(for: "alice", using: try Manifest.load(contentsOf: url), format: .text)
    /// ```
    public func report(for id: String, using manifest: Manifest, named name: String = defaultManifest,
                       format: ReportFormat = .json) async throws -> LiveReport? {
        // Held first: its generation names the data this one is made from, and a change after it comes to it.
        guard let held = try await report(for: id, manifest: name, format: .json) else { return nil }
        guard let renderer = renderers.renderer(for: format) else {
            throw LiveReportsError.unknownFormat(format.name, known: renderers.formats.map(\.name))
        }
        let environment = manifest.environment
        let entries = try manifest.prepare(modules: modules)
        let made: (Report, Int64)? = try await inLane(of: id) { [self] in
            guard let (report, _) = try await make(id, entries, environment) else { return nil }
            // The generation of the data it was made from: the held one's, unless a change came meanwhile.
            let generation = state.withLock { $0.held[Key(practitioner: id, manifest: name)]?.generation } ?? held.generation
            return (report, generation)
        }
        guard let (report, generation) = made else {
            forget(id)
            return nil
        }
        return LiveReport(practitioner: id, manifest: name, format: format, generation: generation, body: renderer.render(report),
                          asOf: environment.asOf, isStale: held.isStale)
    }
}
