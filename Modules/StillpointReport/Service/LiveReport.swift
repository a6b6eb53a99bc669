import Foundation
import StillpointManifest

/// One practitioner's report as ``LiveReports`` holds it: the rendered text, and the generation it belongs to.
///
/// The generation grows each time the report changes (a commit touched the practitioner's sessions, or a new day
/// began), so it serves as an event id and an entity tag: two answers with the same generation, manifest and
/// format have the same bytes.
///
/// ```swift
/// if let live = try await reports.report(for: "alice", format: .html) {
///     print(live.generation, live.isStale ? "(from memory; the store is unreachable)" : "", live.body)
/// }
/// ```
public struct LiveReport: Sendable, Hashable {
    /// The practitioner's id.
    public let practitioner: String
    /// The name of the manifest it was made with (``LiveReports/defaultManifest`` unless one was named).
    public let manifest: String
    public let format: ReportFormat
    /// At least the change-log position the report is current with, and one more than the generation before.
    public let generation: Int64
    /// The report, exactly as the renderer of ``format`` writes it.
    public let body: String
    /// The instant the report was made as of.
    public let asOf: Date
    /// Whether the report may be behind the store: the store could not be reached (or is being caught up with
    /// after it came back), or this report's last refresh failed. It is served from memory meanwhile.
    public let isStale: Bool

    public init(practitioner: String, manifest: String, format: ReportFormat, generation: Int64, body: String, asOf: Date,
                isStale: Bool) {
        self.practitioner = practitioner
        self.manifest = manifest
        self.format = format
        self.generation = generation
        self.body = body
        self.asOf = asOf
        self.isStale = isStale
    }
}
