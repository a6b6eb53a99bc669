import Testing
@testable import StillpointReport

@Suite("Progress bar")
struct ProgressBarTests {
    @Test func formatsRatesAtEverySize() {
        #expect(ProgressBar.formatRate(0, unit: "rows") == "0.0 rows/s")
        #expect(ProgressBar.formatRate(4.25, unit: "rows") == "4.3 rows/s")
        #expect(ProgressBar.formatRate(3_210.4, unit: "rows") == "3,210 rows/s")
        #expect(ProgressBar.formatRate(99_999.4, unit: "rows") == "99,999 rows/s")
        #expect(ProgressBar.formatRate(250_000, unit: "rows") == "250k rows/s")
        #expect(ProgressBar.formatRate(1_234_567, unit: "sessions") == "1.2M sessions/s")
        #expect(ProgressBar.formatRate(.infinity, unit: "rows") == "– rows/s")
        #expect(ProgressBar.formatRate(.nan, unit: "rows") == "– rows/s")
        // A rate beyond an Int (a clock that barely moved) is written as it is rather than trapping.
        #expect(ProgressBar.formatRate(1e300, unit: "rows").hasSuffix("M rows/s"))
    }

    @Test func groupsCounts() {
        #expect(ProgressBar.formatCount(0) == "0")
        #expect(ProgressBar.formatCount(999) == "999")
        #expect(ProgressBar.formatCount(12_345) == "12,345")
        #expect(ProgressBar.formatCount(1_234_567) == "1,234,567")
    }

    @Test func terminalBarShowsCountsTotalAndRate() {
        let capture = TextCapture(), clock = ManualClock()
        let bar = ProgressBar("Importing", total: 1_000, output: capture.output(isTerminal: true), now: { clock.now })
        clock.advance(by: 2)
        bar.update(completed: 500)
        #expect(capture.text == "\r\u{1B}[2KImporting  [████████████░░░░░░░░░░░░]  50 %  500 / 1,000 rows  250 rows/s")
        clock.advance(by: 0.05)
        bar.update(completed: 510)   // within the redraw interval: not drawn
        #expect(!capture.text.contains("510"))
        clock.advance(by: 2)
        bar.update(completed: 1_000)
        bar.finish()
        #expect(capture.text.hasSuffix("\r\u{1B}[2KImporting  1,000 rows in 4.1 s, 247 rows/s\n"))
    }

    @Test func plainModeWritesFewLinesWithoutEscapes() {
        let capture = TextCapture(), clock = ManualClock()
        let bar = ProgressBar("Exporting", unit: "sessions", output: capture.output(isTerminal: false), now: { clock.now })
        for _ in 0..<10 {
            clock.advance(by: 1)
            bar.advance(by: 100)
        }
        bar.finish()
        #expect(capture.text == """
            Exporting  500 sessions  100 sessions/s
            Exporting  1,000 sessions  100 sessions/s
            Exporting  1,000 sessions in 10.0 s, 100 sessions/s

            """)
        #expect(!capture.text.contains("\u{1B}"))
    }

    @Test func oneIsSingular() {
        let capture = TextCapture(), clock = ManualClock()
        let bar = ProgressBar("Importing", output: capture.output(isTerminal: false), now: { clock.now })
        clock.advance(by: 6)
        bar.advance()
        bar.finish()
        #expect(capture.text == "Importing  1 row  0.2 rows/s\nImporting  1 row in 6.0 s, 0.2 rows/s\n")
    }
}
