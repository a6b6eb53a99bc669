import StillpointReport

/// The text report's live view, filling in as each statistic completes: on standard output when it is a
/// terminal; otherwise on standard error when that is a terminal, and nowhere else, so that a report piped or
/// redirected is the report alone.
@MainActor
final class LiveReport {
    private let view: LiveReportView

    private init(output: TerminalOutput) {
        view = LiveReportView(output: output)
    }

    /// The live view for this process's outputs, or `nil` when neither standard output nor standard error is
    /// a terminal.
    static func make() -> LiveReport? {
        let standardOutput = TerminalOutput.standardOutput()
        if standardOutput.isTerminal { return LiveReport(output: standardOutput) }
        let standardError = TerminalOutput.standardError()
        return standardError.isTerminal ? LiveReport(output: standardError) : nil
    }

    func show(_ event: ReportEvent) {
        view.handle(event)
    }
}
