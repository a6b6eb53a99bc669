/// The report as it runs: one line per statistic that goes from waiting to running (with progress) to its
/// result, redrawn in place on a terminal; on anything else (a pipe, a file, a CI log) one plain line per
/// statistic as it completes, in the order they complete, with no escape codes. A terminal too short for
/// the whole block gets the plain lines too (coloured), since lines scrolled off the top cannot be redrawn.
///
/// Nothing else should write to the same terminal while the block is live: a stray line would shift it.
///
/// Feed it the runner's events, on one isolation domain (the main actor, typically):
///
/// ```swift
/// let view = LiveReportView(output: .standardOutput())
/// for await event in runner.events {
///     view.handle(event)
/// }
/// // ✓ Sessions               412
/// // ◐ Current streak         running 40 %
/// // ○ Sessions by weekday    waiting
/// ```
public final class LiveReportView {
    public let output: TerminalOutput
    private var entries: [ReportEntry] = []
    /// Which entries have their final line on screen, in plain mode.
    private var printed: Set<Int> = []
    /// How many lines of the block are on screen, in terminal mode; the cursor is on the line below them.
    private var drawnLines = 0
    private var labelWidth = 0
    /// Whether lines are redrawn in place: on a terminal tall enough to show the whole block.
    private var redraws = false

    public init(output: TerminalOutput) {
        self.output = output
    }

    /// Takes in one event of the runner.
    public func handle(_ event: ReportEvent) {
        switch event {
        case .planned(let planned):
            entries = planned
            printed = []
            labelWidth = min(32, planned.map { ValueText.visible($0.label).count }.max() ?? 0)
            redraws = output.isTerminal && planned.count < (output.rows ?? .max)
            if redraws {
                drawnLines = entries.count
                output.write(entries.indices.map { line($0) + "\n" }.joined())
            }
        case .updated(let index, let outcome):
            // An update for an entry that was never planned has no line to go to.
            guard entries.indices.contains(index) else { return }
            entries[index].outcome = outcome
            show(index)
        case .completed(let report):
            let changed = report.entries.count == entries.count
                ? entries.indices.filter { entries[$0] != report.entries[$0] } : []
            if report.entries.count != entries.count {
                // A report other than the planned one: start again from its entries.
                handle(.planned(report.entries))
            }
            entries = report.entries
            for index in changed { show(index) }
            // Entries that never completed (stopped by Ctrl-C) still get their line.
            if !redraws {
                for index in entries.indices where !printed.contains(index) { printLine(index) }
            }
        }
    }

    private func show(_ index: Int) {
        if redraws {
            let rowsUp = drawnLines - index
            output.write(ANSI.up(rowsUp) + "\r" + ANSI.clearLine + line(index) + ANSI.down(rowsUp) + "\r")
        } else if Self.isFinal(entries[index].outcome), !printed.contains(index) {
            printLine(index)
        }
    }

    private func printLine(_ index: Int) {
        printed.insert(index)
        output.write(line(index) + "\n")
    }

    private static func isFinal(_ outcome: ReportOutcome) -> Bool {
        switch outcome {
        case .finished, .failed, .cancelled: true
        case .waiting, .running: false
        }
    }

    /// The line of one entry: a symbol, the label padded to the column, the value or the state.
    func line(_ index: Int) -> String {
        let entry = entries[index]
        let colour = output.colorEnabled
        let (symbol, style): (String, ANSI.Style?) = switch entry.outcome {
        case .waiting: ("○", .dim)
        case .running: ("◐", .cyan)
        case .finished: ("✓", .green)
        case .failed: ("✗", .red)
        case .cancelled: ("–", .dim)
        }
        // Labels (a manifest's names) and values (file names, kinds, error messages) may come from outside.
        let name = ValueText.visible(entry.label)
        let label = name + String(repeating: " ", count: max(0, labelWidth - name.count))
        var text = ValueText.visible(ValueText.status(entry.outcome, presentation: entry.presentation))
        // Cut to the terminal's width: a wrapped line would throw the cursor arithmetic off by a row.
        if let columns = output.columns {
            let room = columns - 1 - (2 + label.count + 2)
            if room < text.count { text = room > 1 ? String(text.prefix(room - 1)) + "…" : "" }
        }
        let styledSymbol = style.map { ANSI.styled(symbol, $0, enabled: colour) } ?? symbol
        let styledText: String = switch entry.outcome {
        case .waiting, .running, .cancelled: ANSI.styled(text, .dim, enabled: colour)
        case .failed: ANSI.styled(text, .red, enabled: colour)
        case .finished: ANSI.styled(text, .bold, enabled: colour)
        }
        return styledSymbol + " " + label + "  " + styledText
    }
}
