import Foundation

/// Walks an Apple Health `export.xml` and turns mindful sessions and matching workouts into events.
///
/// A document that ends with elements still open, broken markup, or nesting deeper than ``maxDepth`` throws
/// a ``MalformedInput`` with the line: the sessions after it were never read, so going on quietly would
/// lose them.
final class AppleHealthEventSource: ImportEventSource {
    private static let mindfulType = "HKCategoryTypeIdentifierMindfulSession"
    /// Open elements at most; an export nests four deep, so deeper is broken (or hostile) input.
    static let maxDepth = 256
    private static let exportAgain = "Export the data from Apple Health again (Health → profile → Export All Health Data) "
        + "and import the new export."

    private let cursor: ByteCursor
    private let tokenizer: XMLTokenizer
    private let workoutKinds: [String: String]
    /// Names of the open elements; the export nests only a few levels deep.
    private var openElements: [String] = []
    /// Keys of the sessions seen so far, with their lines, to drop the copies the app and the watch
    /// both write. Grows with the number of sessions, not with the size of the file.
    private var seen: [String: Int] = [:]
    private var done = false

    var line: Int { tokenizer.line }
    var peakBufferedBytes: Int { tokenizer.peakBufferedBytes }

    /// Checks that the input is XML with a `HealthData` root.
    convenience init(source: any ByteChunkSource, path: String, workoutKinds: [String: String]) throws {
        try self.init(cursor: ByteCursor(source: source), path: path, workoutKinds: workoutKinds)
    }

    /// Checks that the input, from the cursor's position on, is XML with a `HealthData` root.
    init(cursor: ByteCursor, path: String, workoutKinds: [String: String]) throws {
        self.cursor = cursor
        tokenizer = XMLTokenizer(cursor: cursor)
        self.workoutKinds = workoutKinds
        func formatError(_ found: String) -> ImportFormatError {
            ImportFormatError(
                path: path, format: "an Apple Health export",
                expected: "an XML document whose root element is <HealthData>", found: found,
                suggestion: "Import the export.zip made by Health → profile → Export All Health Data, "
                    + "or the export.xml inside it.")
        }
        guard try tokenizer.startsWithMarkup() else {
            throw formatError(cursor.bytesRead == 0 ? "an empty file" : "text that is not XML (it does not start with '<')")
        }
        while true {
            switch try tokenizer.next() {
            case nil:
                throw formatError("no element at all")
            case .malformed(let reason, let line)?:
                throw formatError("malformed XML at line \(line): \(reason)")
            case .end(let name, let line)?:
                throw formatError("the end tag </\(name)> at line \(line) before any element")
            case .start(let name, let line, let selfClosing)?:
                guard name == "HealthData" else { throw formatError("the root element <\(name)> at line \(line)") }
                if selfClosing {
                    done = true
                    _ = try cursor.skipToEnd(limit: ImportLimits.maxRecordBytes)
                } else {
                    openElements.append(name)
                }
                return
            }
        }
    }

    func next() throws -> ImportEvent? {
        while !done {
            guard let token = try tokenizer.next() else { throw endOfInput() }
            switch token {
            case .malformed(let reason, let line):
                throw stop(line: line, reason: reason)
            case .end(let name, let line):
                if let problem = close(name) { throw stop(line: line, reason: problem) }
                if openElements.isEmpty {
                    done = true
                    // Reads the little that follows the root, so a damaged ZIP entry's checksum is checked.
                    _ = try cursor.skipToEnd(limit: ImportLimits.maxRecordBytes)
                }
            case .start(let name, let line, let selfClosing):
                // Sessions are direct children of <HealthData>; the same element types inside a
                // <Correlation> or elsewhere are not sessions of their own.
                if openElements.count == 1, let event = try session(name: name, line: line, selfClosing: selfClosing) {
                    return event
                }
                if !selfClosing { try open(name, line: line) }
            }
        }
        return nil
    }

    /// The input ended before the root element closed: the export is cut short.
    private func endOfInput() -> MalformedInput {
        done = true
        return MalformedInput(
            line: tokenizer.line,
            reason: "the document ends inside <\(openElements.last ?? "HealthData")>: the export is cut short, "
                + "and any session after this line is missing",
            suggestion: Self.exportAgain)
    }

    /// Markup that can't be trusted: nothing after it is read.
    private func stop(line: Int, reason: String) -> MalformedInput {
        done = true
        if reason.hasPrefix("the file ends inside") {
            return MalformedInput(line: line, reason: "\(reason): the export is cut short, and any session after this line is missing",
                                  suggestion: Self.exportAgain)
        }
        return MalformedInput(line: line, reason: "malformed XML (\(reason)); the rest of the file was not read",
                              suggestion: Self.exportAgain)
    }

    /// Pushes an element that was opened, refusing nesting no export has.
    private func open(_ name: String, line: Int) throws {
        guard openElements.count < Self.maxDepth else {
            throw stop(line: line, reason: "elements nest more than \(Self.maxDepth) deep at <\(name)>")
        }
        openElements.append(name)
    }

    /// Pops `name`; returns a problem when it doesn't close the innermost open element.
    private func close(_ name: String) -> String? {
        guard let open = openElements.last else { return "the end tag </\(name)> comes after the root element ended" }
        guard open == name else { return "the end tag </\(name)> does not close <\(open)>" }
        openElements.removeLast()
        return nil
    }

    /// The event for a top-level element if it is a session, or `nil` to skip it. A session element that is
    /// not self-closing is read to its end here, for its `HKTimeZone` metadata.
    private func session(name: String, line: Int, selfClosing: Bool) throws -> ImportEvent? {
        let kind: String
        switch name {
        case "Record" where tokenizer.attribute("type", is: Self.mindfulType):
            kind = "meditation"
        case "Workout":
            guard let type = tokenizer.attribute("workoutActivityType"), let workoutKind = workoutKinds[type] else {
                return nil
            }
            kind = workoutKind
        default:
            return nil
        }
        let attributes = Attributes(tokenizer: tokenizer, isWorkout: name == "Workout")
        var timeZone: String?
        if !selfClosing {
            timeZone = try readChildren(of: name, line: line)
        }
        return event(kind: kind, attributes: attributes, timeZone: timeZone, element: name, line: line)
    }

    /// What the start tag of a session says, copied before the tokenizer moves on to its children.
    private struct Attributes {
        var source: String?
        var start: String?
        var end: String?
        var duration: String?
        var durationUnit: String?

        init(tokenizer: XMLTokenizer, isWorkout: Bool) {
            source = tokenizer.attribute("sourceName")
            start = tokenizer.attribute("startDate")
            end = tokenizer.attribute("endDate")
            if isWorkout {
                duration = tokenizer.attribute("duration")
                durationUnit = tokenizer.attribute("durationUnit")
            }
        }
    }

    /// Reads up to the end tag of the session element just opened, and returns its `HKTimeZone`, if any.
    private func readChildren(of element: String, line: Int) throws -> String? {
        try open(element, line: line)
        let depth = openElements.count
        var timeZone: String?
        while openElements.count >= depth {
            switch try tokenizer.next() {
            case nil:
                throw endOfInput()
            case .malformed(let reason, let line)?:
                throw stop(line: line, reason: reason)
            case .end(let name, let line)?:
                if let problem = close(name) { throw stop(line: line, reason: problem) }
            case .start(let name, let line, let selfClosing)?:
                if name == "MetadataEntry", tokenizer.attribute("key", is: "HKTimeZone"),
                   let zone = tokenizer.attribute("value"), TimeZone(identifier: zone) != nil {
                    timeZone = zone
                }
                if !selfClosing { try open(name, line: line) }
            }
        }
        return timeZone
    }

    private func event(kind: String, attributes: Attributes, timeZone: String?, element: String, line: Int) -> ImportEvent {
        func issue(_ reason: String) -> ImportEvent { .issue(ImportIssue(line: line, reason: reason)) }
        guard let startText = attributes.start else { return issue("<\(element)> has no startDate") }
        guard let startStamp = TimestampParser.appleHealthStamp(startText) else {
            return issue(Self.dateProblem("startDate", startText))
        }
        let start = startStamp.date
        guard let endText = attributes.end else { return issue("<\(element)> has no endDate") }
        guard let end = TimestampParser.appleHealth(endText) else {
            return issue(Self.dateProblem("endDate", endText))
        }
        guard end >= start else { return issue("endDate \(endText) is before startDate \(startText) (a negative duration)") }
        var duration = end.timeIntervalSince(start)
        if let durationText = attributes.duration {
            // A workout's own duration leaves out pauses, so it wins over end minus start.
            let scale: Double
            switch attributes.durationUnit ?? "min" {
            case "min": scale = 60
            case "s", "sec": scale = 1
            case "hr", "h": scale = 3_600
            case let unit: return issue("durationUnit \(ImportIssue.quoted(unit)) is not min or s")
            }
            switch DurationParser.number(durationText, scale: scale) {
            case .seconds(let seconds): duration = seconds
            case .negative: return issue("duration \(ImportIssue.quoted(durationText)) is negative")
            case .invalid: return issue("duration \(ImportIssue.quoted(durationText)) is not a number")
            }
        }
        let source = attributes.source.flatMap { $0.isEmpty ? nil : $0 } ?? "Apple Health"
        let key = SessionRecord.key(source: source, start: start, end: end)
        if let first = seen[key] {
            return issue("the same session as line \(first) (same source, start and end); skipped as a duplicate")
        }
        seen[key] = line
        // The zone named in the metadata, else the offset the date was written with: either way the
        // session's day is the one it was lived on, whatever zone the report runs in.
        let zone = timeZone ?? startStamp.offset.flatMap(TimestampParser.zoneIdentifier(offset:))
        let record = SessionRecord(start: start, duration: duration, kind: kind, source: source,
                                   timeZone: zone, key: key)
        return .record(record, line: line)
    }

    /// Why a date attribute could not be read: an offset beyond ±14:00 is named as such.
    private static func dateProblem(_ attribute: String, _ text: String) -> String {
        if let offset = TimestampParser.offsetBeyondLimit(in: text) {
            return "\(attribute) \(ImportIssue.quoted(text)) has the offset \(offset), beyond ±14:00 (no clock is "
                + "further from UTC)"
        }
        return "\(attribute) \(ImportIssue.quoted(text)) is not yyyy-MM-dd HH:mm:ss Z"
    }
}
