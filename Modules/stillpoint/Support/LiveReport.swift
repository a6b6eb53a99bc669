import StillpointReport

/// The text report on standard output: the live view fills in as each statistic completes.
@MainActor
final class LiveReport {
    private let view = LiveReportView(output: .standardOutput())

    func show(_ event: ReportEvent) {
        view.handle(event)
    }
}
