import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the live view and progress bars write, and what that place can show: cursor movement only on a
/// terminal, colour only on a terminal and never with `NO_COLOR` set.
///
/// The factories decide from the file descriptor and the environment; tests build one with a closure.
///
/// ```swift
/// let output = TerminalOutput.standardError()
/// output.write("Importing…\n")
///
/// let captured = TerminalOutput(isTerminal: false, colorEnabled: false) { text in buffer.append(text) }
/// ```
public struct TerminalOutput: Sendable {
    /// Whether the output is a terminal that can redraw lines in place.
    public var isTerminal: Bool
    /// Whether to colour text with ANSI escapes.
    public var colorEnabled: Bool
    /// The terminal's width in characters, when known; lines are cut to fit so that redrawing never wraps.
    public var columns: Int?
    /// The terminal's height in lines, when known: a live view taller than the screen cannot reach its top
    /// lines again, so it prints plain lines instead.
    public var rows: Int?
    private let sink: @Sendable (String) -> Void

    public init(isTerminal: Bool, colorEnabled: Bool, columns: Int? = nil, rows: Int? = nil,
                write: @escaping @Sendable (String) -> Void) {
        self.isTerminal = isTerminal
        self.colorEnabled = colorEnabled && isTerminal
        self.columns = columns
        self.rows = rows
        sink = write
    }

    /// Writes `text` as is; callers end their lines.
    public func write(_ text: String) {
        sink(text)
    }

    /// Standard output, where reports go.
    public static func standardOutput(environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalOutput {
        fileDescriptor(STDOUT_FILENO, environment: environment)
    }

    /// Standard error, where progress goes when standard output carries a report.
    public static func standardError(environment: [String: String] = ProcessInfo.processInfo.environment) -> TerminalOutput {
        fileDescriptor(STDERR_FILENO, environment: environment)
    }

    /// An open file descriptor, a terminal when `isatty` says so and `TERM` is not `dumb`.
    ///
    /// ```swift
    /// TerminalOutput.fileDescriptor(STDOUT_FILENO, environment: ["NO_COLOR": "1"]).colorEnabled   // false
    /// ```
    public static func fileDescriptor(_ descriptor: Int32, environment: [String: String]) -> TerminalOutput {
        let terminal = isTerminal(isatty: isatty(descriptor) == 1, environment: environment)
        let size: (columns: Int?, rows: Int?) = terminal ? size(of: descriptor, environment: environment) : (nil, nil)
        return TerminalOutput(isTerminal: terminal, colorEnabled: colorEnabled(isTerminal: terminal, environment: environment),
                              columns: size.columns, rows: size.rows) { text in
            writeAll(text, to: descriptor)
        }
    }

    /// A terminal is a tty whose `TERM` can move the cursor: a `dumb` terminal (Emacs shells, some CI logs)
    /// gets plain lines.
    public static func isTerminal(isatty: Bool, environment: [String: String]) -> Bool {
        isatty && environment["TERM"] != "dumb"
    }

    /// Colour on a terminal unless `NO_COLOR` is set to anything but the empty string (no-color.org).
    ///
    /// ```swift
    /// TerminalOutput.colorEnabled(isTerminal: true, environment: ["NO_COLOR": "1"])   // false
    /// TerminalOutput.colorEnabled(isTerminal: true, environment: ["NO_COLOR": ""])    // true
    /// ```
    public static func colorEnabled(isTerminal: Bool, environment: [String: String]) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// The size from the terminal itself, else from `COLUMNS` and `LINES`.
    private static func size(of descriptor: Int32, environment: [String: String]) -> (columns: Int?, rows: Int?) {
        var size = winsize()
        if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        let number = { (name: String) in environment[name].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } }
        return (number("COLUMNS"), number("LINES"))
    }

    /// Writes every byte, retrying short writes and interruptions, so a redraw never lands half on screen.
    private static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                Darwin.write(descriptor, buffer.baseAddress, buffer.count)
                #elseif canImport(Musl)
                Musl.write(descriptor, buffer.baseAddress, buffer.count)
                #else
                Glibc.write(descriptor, buffer.baseAddress, buffer.count)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                return   // A closed pipe (`stillpoint report | head`) ends the output, not the report.
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
