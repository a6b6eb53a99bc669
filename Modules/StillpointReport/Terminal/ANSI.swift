/// The few ANSI escape sequences the live view and progress bars use.
///
/// ```swift
/// ANSI.styled("✓", .green, enabled: output.colorEnabled)   // "\u{1B}[32m✓\u{1B}[0m" on a colour terminal
/// ANSI.up(3) + ANSI.clearLine                               // to redraw the line three rows up
/// ```
enum ANSI {
    /// A text style: a colour, or dim, or bold.
    enum Style: String {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
    }

    static let escape = "\u{1B}["
    /// Clears the whole current line; the cursor stays where it is.
    static let clearLine = escape + "2K"
    static let reset = escape + "0m"

    /// Moves the cursor `lines` rows up.
    static func up(_ lines: Int) -> String {
        lines > 0 ? escape + "\(lines)A" : ""
    }

    /// Moves the cursor `lines` rows down.
    static func down(_ lines: Int) -> String {
        lines > 0 ? escape + "\(lines)B" : ""
    }

    /// `text` in `style` when colour is enabled, as is otherwise.
    static func styled(_ text: String, _ style: Style, enabled: Bool) -> String {
        enabled && !text.isEmpty ? escape + style.rawValue + "m" + text + reset : text
    }
}
