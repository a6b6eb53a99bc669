import Foundation
import PracticeLog
import StillpointCore
import StillpointReport

/// How `stillpoint sessions` shows a snapshot of the latest sessions: on a terminal each snapshot replaces the
/// one before in place (the cursor goes back up over it and the rest of the screen is cleared); anywhere else
/// each is printed after the one before as a block that starts with a `== snapshot N ...` line, so a log (or a
/// test) reads them all.
///
/// A row's first column marks what the snapshot changed: `+` new, `~` changed, `>` moved.
///
/// ```swift
/// let view = SessionsView(output: .standardOutput())
/// for await snapshot in latest { view.show(snapshot, live: true) }
/// ```
final class SessionsView {
    let output: TerminalOutput
    private static let escape = "\u{1B}["
    /// How many lines the snapshot on screen took, to go back over them.
    private var linesOnScreen = 0
    private let startFormat: Date.VerbatimFormatStyle

    init(output: TerminalOutput) {
        self.output = output
        startFormat = Date.VerbatimFormatStyle(
            format: "\(year: .defaultDigits)-\(month: .twoDigits)-\(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits)",
            timeZone: TimeZone(identifier: "UTC") ?? .current, calendar: Calendar(identifier: .gregorian))
    }

    /// Shows a snapshot: in place of the one before on a terminal, after it elsewhere.
    func show(_ snapshot: LiveSnapshot, live: Bool) {
        var lines = [header(snapshot, live: live)]
        let marks = Self.marks(of: snapshot)
        lines += snapshot.rows.enumerated().map { index, row in line(row, mark: marks[index] ?? " ") }
        if snapshot.rows.isEmpty { lines.append("  no sessions") }
        if let columns = output.columns {
            lines = lines.map { $0.count > columns ? String($0.prefix(columns)) : $0 }
        }
        var text = ""
        if output.isTerminal && linesOnScreen > 0 {
            // Back to the first line of the snapshot on screen, or home when it is taller than the screen.
            if let rows = output.rows, linesOnScreen >= rows {
                text += Self.escape + "H" + Self.escape + "2J"
            } else {
                text += Self.escape + "\(linesOnScreen)A\r" + Self.escape + "J"
            }
        }
        text += lines.joined(separator: "\n") + "\n"
        output.write(text)
        linesOnScreen = lines.count
    }

    private func header(_ snapshot: LiveSnapshot, live: Bool) -> String {
        let difference = snapshot.difference
        let title = "the latest \(snapshot.count) \(snapshot.count == 1 ? "session" : "sessions")"
        guard live else { return output.isTerminal ? "Showing \(title)" : "== \(title) ==" }
        let changes = snapshot.generation == 0 ? "as read" : [
            "\(difference.inserted.count) new", "\(difference.deleted.count) gone",
            "\(difference.moved.count) moved", "\(difference.updated.count) changed",
        ].joined(separator: ", ")
        let prefix = output.isTerminal ? "" : "== "
        let suffix = output.isTerminal ? " · Ctrl-C to stop" : " =="
        return "\(prefix)snapshot \(snapshot.generation): \(title) (\(changes))\(suffix)"
    }

    private func line(_ row: LiveRow, mark: Character) -> String {
        let start = row[Session.start].map { $0.formatted(startFormat) } ?? "?"
        let duration = row[Session.duration].map(Self.duration) ?? "?"
        // Kinds and sources come from the exports: shown escaped, they can neither drive the terminal nor
        // break the line.
        let kind = ValueText.visible(row[Session.kind] ?? "")
        let source = ValueText.visible(row[Session.source] ?? "")
        return "\(mark) \(start)Z  \(String(repeating: " ", count: max(0, 8 - duration.count)))\(duration)  \(kind)  \(source)"
    }

    /// `m:ss`, or `h:mm:ss` from an hour on.
    static func duration(_ seconds: Double) -> String {
        guard let total = Int(exactly: seconds.rounded()), total >= 0, total < 1_000_000_000 else { return "?" }
        func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }

    /// The mark of each row the snapshot brought in, moved or changed, by its index in the rows.
    static func marks(of snapshot: LiveSnapshot) -> [Int: Character] {
        guard snapshot.generation > 0 else { return [:] }
        var marks: [Int: Character] = [:]
        func index(_ position: LivePosition) -> Int { snapshot.sections[position.section].start + position.item }
        for position in snapshot.difference.inserted { marks[index(position)] = "+" }
        for position in snapshot.difference.updated { marks[index(position)] = "~" }
        for move in snapshot.difference.moved { marks[index(move.to)] = ">" }
        return marks
    }
}
