import Foundation

/// Splits a Meditation Helper log into records at U+0FC4 and fields at U+0FCC, and turns them into events.
final class MeditationHelperEventSource: ImportEventSource {
    /// U+0FC4 in UTF-8: starts a record.
    static let recordStart: [UInt8] = [0xE0, 0xBF, 0x84]
    /// U+0FCC in UTF-8: separates fields.
    static let fieldSeparator: [UInt8] = [0xE0, 0xBF, 0x8C]

    private let cursor: ByteCursor
    private let wallClock: WallClockTime
    private let zoneIdentifier: String
    /// The line of the next unread byte.
    private(set) var line = 1

    var peakBufferedBytes: Int { cursor.peakBufferedBytes }

    init(cursor: ByteCursor, wallClock: WallClockTime) {
        self.cursor = cursor
        self.wallClock = wallClock
        zoneIdentifier = wallClock.zoneIdentifier
    }

    /// Skips a byte order mark and blank space up to the first record; returns what was found instead of
    /// one (for the format error), or `nil` when the cursor is at a record.
    static func skipToFirstRecord(_ cursor: ByteCursor) throws -> String? {
        if try cursor.hasPrefix([0xEF, 0xBB, 0xBF]) { cursor.index += 3 }
        while try cursor.ensure(), [0x20, 0x09, 0x0A, 0x0D].contains(cursor.bytes[cursor.index]) {
            cursor.index += 1
        }
        guard try cursor.ensure() else { return "an empty file" }
        if try cursor.hasPrefix(recordStart) { return nil }
        _ = try cursor.ensure(60)
        let sample = cursor.bytes[cursor.index..<min(cursor.bytes.count, cursor.index + 60)].prefix { $0 != 0x0A && $0 != 0x0D }
        return "text that starts " + ImportIssue.quoted(String(decoding: sample, as: UTF8.self), limit: 40)
    }

    func next() throws -> ImportEvent? {
        guard let (bytes, recordLine) = try nextRecord() else { return nil }
        return event(fields: Self.fields(of: bytes), line: recordLine)
    }

    /// The bytes of the next record after its U+0FC4, and the line it starts on.
    private func nextRecord() throws -> ([UInt8], Int)? {
        // Blank lines between records are not records.
        while try cursor.ensure(), !(try cursor.hasPrefix(Self.recordStart)) {
            let byte = cursor.bytes[cursor.index]
            guard [0x20, 0x09, 0x0A, 0x0D].contains(byte) else { break }
            if byte == 0x0A { line += 1 }
            cursor.index += 1
        }
        guard try cursor.ensure() else { return nil }
        let recordLine = line
        var record: [UInt8] = []
        if try cursor.hasPrefix(Self.recordStart) { cursor.index += Self.recordStart.count }
        while try cursor.ensure() {
            let byte = cursor.bytes[cursor.index]
            if byte == Self.recordStart[0], try cursor.hasPrefix(Self.recordStart) { break }
            if byte == 0x0A { line += 1 }
            record.append(byte)
            cursor.index += 1
            if record.count > ImportLimits.maxRecordBytes {
                throw MalformedInput.tooLarge(line: recordLine, what: "the record starting here",
                                              hint: " (records start with U+0FC4)")
            }
        }
        return (record, recordLine)
    }

    /// The trimmed fields of a record's bytes.
    static func fields(of bytes: [UInt8]) -> [String] {
        var fields: [String] = []
        var start = 0
        var index = 0
        while index + fieldSeparator.count <= bytes.count {
            if bytes[index] == fieldSeparator[0], bytes[index + 1] == fieldSeparator[1], bytes[index + 2] == fieldSeparator[2] {
                fields.append(String(decoding: bytes[start..<index], as: UTF8.self).trimmed())
                index += fieldSeparator.count
                start = index
            } else {
                index += 1
            }
        }
        fields.append(String(decoding: bytes[start...], as: UTF8.self).trimmed())
        return fields
    }

    private func event(fields: [String], line: Int) -> ImportEvent {
        func issue(_ reason: String) -> ImportEvent { .issue(ImportIssue(line: line, reason: reason)) }
        guard let startIndex = fields.firstIndex(where: { TimestampParser.dateTime($0, zone: nil) != nil }),
              let written = TimestampParser.dateTime(fields[startIndex], zone: nil)
        else {
            let shown = fields.prefix(4).map { ImportIssue.quoted($0) }.joined(separator: ", ")
            return issue("has no start time like 2024-03-05 07:30:00 among its fields \(shown)")
        }
        let rest = fields[(startIndex + 1)...]
        let duration: TimeInterval
        if let milliseconds = rest.first(where: { !$0.isEmpty && $0.count <= 15 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
           let value = Double(milliseconds) {
            duration = value / 1_000
        } else if let end = rest.lazy.compactMap({ TimestampParser.dateTime($0, zone: nil) }).first {
            guard end >= written else { return issue("ends before it starts (a negative duration)") }
            duration = end.timeIntervalSince(written)
        } else {
            return issue("has no duration in milliseconds after its start \(ImportIssue.quoted(fields[startIndex]))")
        }
        let start = wallClock.start(wallClock: written)
        let key = SessionRecord.key(source: "meditation_helper", start: written, end: written.addingTimeInterval(duration))
        let record = SessionRecord(start: start, duration: duration, kind: "meditation", source: "meditation_helper",
                                   timeZone: zoneIdentifier, key: key)
        return .record(record, line: line)
    }
}
