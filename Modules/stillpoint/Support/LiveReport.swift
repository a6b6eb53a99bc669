import Foundation
import StillpointReport

/// The text report on standard output: filled in as each statistic completes, then the summary table.
final class LiveReport: Sendable {
    static func standardOutput() -> LiveReport { LiveReport() }

    @MainActor
    func show(_ event: ReportEvent) {
        guard case .updated(_, let outcome) = event else { return }
        switch outcome {
        case .finished, .failed, .cancelled: break
        default: return
        }
    }

    func finish(_ report: Report) {
        Output.print(TextReportRenderer().render(report))
    }
}
