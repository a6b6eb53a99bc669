import Testing
@testable import StillpointReport

@Suite("Watch screen")
struct WatchScreenTests {
    /// On a terminal a refreshed report replaces the one on screen; the first is printed as is.
    @Test func aTerminalRedrawsInPlace() {
        let capture = TextCapture()
        let screen = WatchScreen(output: capture.output(isTerminal: true))
        screen.show("first")
        screen.show("second", replacing: true)
        #expect(capture.text == "first\n\u{1B}[H\u{1B}[2Jsecond\n")
    }

    /// Anywhere else each report follows the one before, with no escape codes.
    @Test func elsewhereReportsFollowEachOther() {
        let capture = TextCapture()
        let screen = WatchScreen(output: capture.output(isTerminal: false))
        screen.show("first")
        screen.show("second\n", replacing: true)
        #expect(capture.text == "first\nsecond\n")
    }
}
