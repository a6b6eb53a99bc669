/// Where `report --watch` shows each refreshed report: on a terminal the new report replaces the old one on
/// screen (the cursor goes home and the screen is cleared, as `watch(1)` does); anywhere else (a pipe, a file,
/// a `dumb` terminal) each report is printed after the one before, with no escape codes, so a log keeps them all.
///
/// `NO_COLOR` does not turn redrawing off: it is about colour, and a redraw has none.
///
/// ```swift
/// let screen = WatchScreen(output: .standardOutput())
/// screen.show(firstReport)
/// screen.show(refreshedReport, replacing: true)   // "\u{1B}[H\u{1B}[2J" + refreshedReport on a terminal
/// ```
public struct WatchScreen: Sendable {
    public let output: TerminalOutput

    /// Moves the cursor to the top left corner and clears the screen.
    static let clearScreen = ANSI.escape + "H" + ANSI.escape + "2J"

    public init(output: TerminalOutput) {
        self.output = output
    }

    /// Shows `text` (a newline is added when it lacks one), in place of what is on screen when `replacing`
    /// and the output is a terminal.
    public func show(_ text: String, replacing: Bool = false) {
        let line = Self.terminated(text)
        output.write(replacing && output.isTerminal ? Self.clearScreen + line : line)
    }

    /// `text` as `stillpoint report` writes it to standard output: with a line break after it unless it ends with
    /// `\n` (a CSV report's final `\r\n` is one character in Swift, so it gets one too). The server sends the same bytes.
    ///
    /// ```swift
    /// WatchScreen.terminated("a,b\r\n")   // "a,b\r\n\n"
    /// ```
    public static func terminated(_ text: String) -> String {
        text.hasSuffix("\n") ? text : text + "\n"
    }
}
