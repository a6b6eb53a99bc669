import Testing
@testable import StillpointReport

@Suite("Terminal output")
struct TerminalOutputTests {
    @Test func colourOnlyOnATerminalWithoutNoColor() {
        #expect(TerminalOutput.colorEnabled(isTerminal: true, environment: [:]))
        #expect(!TerminalOutput.colorEnabled(isTerminal: false, environment: [:]))
        #expect(!TerminalOutput.colorEnabled(isTerminal: true, environment: ["NO_COLOR": "1"]))
        #expect(!TerminalOutput.colorEnabled(isTerminal: true, environment: ["NO_COLOR": "false"]))
        #expect(TerminalOutput.colorEnabled(isTerminal: true, environment: ["NO_COLOR": ""]))
    }

    @Test func aDumbTerminalGetsPlainLines() {
        #expect(TerminalOutput.isTerminal(isatty: true, environment: ["TERM": "xterm-256color"]))
        #expect(!TerminalOutput.isTerminal(isatty: true, environment: ["TERM": "dumb"]))
        #expect(!TerminalOutput.isTerminal(isatty: false, environment: [:]))
    }

    @Test func noColourWithoutATerminal() {
        let output = TerminalOutput(isTerminal: false, colorEnabled: true) { _ in }
        #expect(!output.colorEnabled)
    }

    @Test func noColorDisablesColourInTheLiveView() {
        // What the factory decides for a terminal with NO_COLOR set, applied to a captured output.
        let capture = TextCapture()
        let colour = TerminalOutput.colorEnabled(isTerminal: true, environment: ["NO_COLOR": "1"])
        let view = LiveReportView(output: capture.output(isTerminal: true, colorEnabled: colour))
        for event in LiveReportViewTests.events { view.handle(event) }
        #expect(capture.text.contains("\u{1B}[2K"))
        #expect(!capture.text.contains("m✓"))
        #expect(!capture.text.contains("\u{1B}[0m"))
    }
}
