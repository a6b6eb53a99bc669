import Foundation
import Testing
@testable import StillpointReport
import StillpointStatistics

@Suite("Live report view")
struct LiveReportViewTests {
    static let planned = [
        SampleReports.entry("session_count", "Sessions", .waiting),
        SampleReports.entry("total_time", "Total time", .waiting),
        SampleReports.entry("current_streak", "Current streak", .waiting),
    ]

    /// A run in which the statistics finish out of order and one fails.
    static let events: [ReportEvent] = [
        .planned(planned),
        .updated(index: 0, .running(progress: nil)),
        .updated(index: 1, .running(progress: 0.4)),
        .updated(index: 1, .finished(StatisticResult(.quantity(5_400, .seconds)))),
        .updated(index: 2, .running(progress: nil)),
        .updated(index: 2, .failed(message: "boom")),
        .updated(index: 0, .finished(StatisticResult(.quantity(12, .count)))),
    ]

    static let report = Report(asOf: SampleReports.asOf, timeZone: .gmt, entries: [
        SampleReports.entry("session_count", "Sessions", .finished(StatisticResult(.quantity(12, .count)))),
        SampleReports.entry("total_time", "Total time", .finished(StatisticResult(.quantity(5_400, .seconds)))),
        SampleReports.entry("current_streak", "Current streak", .failed(message: "boom")),
    ])

    @Test func plainModePrintsOneLinePerCompletionInOrderWithoutEscapes() {
        let capture = TextCapture()
        let view = LiveReportView(output: capture.output(isTerminal: false))
        for event in Self.events { view.handle(event) }
        view.handle(.completed(Self.report))
        #expect(capture.text == """
            ✓ Total time      1h 30m
            ✗ Current streak  failed: boom
            ✓ Sessions        12

            """)
        #expect(!capture.text.contains("\u{1B}"))
    }

    @Test func plainModePrintsEntriesThatNeverCompletedAtTheEnd() {
        let capture = TextCapture()
        let view = LiveReportView(output: capture.output(isTerminal: false))
        view.handle(.planned(Self.planned))
        view.handle(.updated(index: 1, .finished(StatisticResult(.quantity(60, .seconds)))))
        var report = Self.report
        report.entries[0].outcome = .cancelled
        report.entries[1].outcome = .finished(StatisticResult(.quantity(60, .seconds)))
        report.entries[2].outcome = .cancelled
        view.handle(.completed(report))
        let lines = capture.text.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(zip(lines, ["✓ Total time", "– Sessions", "– Current streak"]).allSatisfy { $0.hasPrefix($1) })
    }

    @Test func terminalModeRedrawsLinesInPlace() {
        let capture = TextCapture()
        let view = LiveReportView(output: capture.output(isTerminal: true, colorEnabled: false))
        for event in Self.events.prefix(3) { view.handle(event) }
        let text = capture.text
        // All three lines first, then the second one redrawn two rows up, and the cursor back below.
        #expect(text.hasPrefix("○ Sessions        waiting\n○ Total time      waiting\n○ Current streak  waiting\n"))
        #expect(text.contains("\u{1B}[2A\r\u{1B}[2K◐ Total time      running 40 %\u{1B}[2B\r"))
        #expect(text.contains("\u{1B}[3A\r\u{1B}[2K◐ Sessions        running\u{1B}[3B\r"))
        #expect(!text.contains("\u{1B}[3"+"2m"))   // colour off
    }

    @Test func terminalModeColoursUnlessDisabled() {
        let capture = TextCapture()
        let view = LiveReportView(output: capture.output(isTerminal: true, colorEnabled: true))
        for event in Self.events { view.handle(event) }
        #expect(capture.text.contains("\u{1B}[32m✓\u{1B}[0m"))
        #expect(capture.text.contains("\u{1B}[31m✗\u{1B}[0m"))
    }

    @Test func terminalModeCutsLinesToTheWidth() {
        let capture = TextCapture()
        let view = LiveReportView(output: capture.output(isTerminal: true, columns: 24))
        view.handle(.planned(Self.planned))
        view.handle(.updated(index: 2, .failed(message: "a long message that would wrap")))
        let lines = capture.text.components(separatedBy: "\u{1B}[2K").last?.components(separatedBy: "\u{1B}[").first
        #expect(lines == "✗ Current streak  fail…")
    }
}

extension LiveReportViewTests {
    @Test func aTerminalShorterThanTheBlockGetsPlainLines() {
        let capture = TextCapture()
        let view = LiveReportView(output: capture.output(isTerminal: true, colorEnabled: false, rows: 3))
        for event in Self.events { view.handle(event) }
        #expect(capture.text == "✓ Total time      1h 30m\n✗ Current streak  failed: boom\n✓ Sessions        12\n")
    }
}
