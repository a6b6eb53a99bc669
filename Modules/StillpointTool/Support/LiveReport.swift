import StillpointReport

/// The text report's live view, filling in as each statistic completes: on standard output when it is a
/// terminal; otherwise on standard error (redrawn in place when that is a terminal, plain lines in completion
/// order when not), so that a report piped or redirected is the report alone.
@MainActor
final class LiveReport {
    private let view: LiveReportView

    private init(output: TerminalOutput) {
        view = LiveReportView(output: output)
    }

    /// The live view for this process's outputs.
    static func make() -> LiveReport {
        let standardOutput = TerminalOutput.standardOutput()
        return LiveReport(output: standardOutput.isTerminal ? standardOutput : .standardError())
    }

    func show(_ event: ReportEvent) {
        view.handle(event)
    }
}
