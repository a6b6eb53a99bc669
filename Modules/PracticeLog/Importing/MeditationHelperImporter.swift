import Foundation

/// Reads Meditation Helper's (Android) own log export: no header, each record starting with U+0FC4 `࿄`
/// and its fields separated by U+0FCC `࿌`; times are `yyyy-MM-dd HH:mm:ss` wall-clock times and
/// durations are milliseconds.
///
/// The fields are found by their shape, since the export names none: the record's start is its first
/// `yyyy-MM-dd HH:mm:ss` field, its duration the first field of digits only after it (milliseconds), or
/// else the time to a second date-time field (an end). Other fields are left out. Times are read by the
/// ``WallClockTime`` rule; sessions are `meditation` from the source `meditation_helper`. Issues name the
/// line where their record starts.
///
/// ```swift
/// let reader = try MeditationHelperImporter().makeRecordReader(url: URL(filePath: "meditation-log.txt"))
/// ```
public struct MeditationHelperImporter: SessionImporter {
    public static let id = "meditation-helper"

    /// The zone the times are in, which the records then carry; `nil` keeps them as the wall-clock times
    /// the person saw.
    public var timeZone: TimeZone?

    public init() {
        timeZone = nil
    }

    public init(timeZone: TimeZone?) {
        self.timeZone = timeZone
    }

    public func makeRecordReader(url: URL) throws -> SessionRecordReader {
        let cursor = ByteCursor(source: try FileChunkSource(url: url))
        let found: String?
        do {
            found = try MeditationHelperEventSource.skipToFirstRecord(cursor)
        } catch {
            throw ImportReadError.wrapping(error, path: url.path, line: nil)
        }
        if let found {
            throw ImportFormatError(
                path: url.path, format: "a Meditation Helper log",
                expected: "records starting with '\u{0FC4}' and fields separated by '\u{0FCC}'", found: found,
                suggestion: "Export the log again from Meditation Helper (Statistics → Export), or import the file "
                    + "as a generic CSV with its columns named.")
        }
        let wallClock = WallClockTime(zone: timeZone)
        return SessionRecordReader(url: url, source: MeditationHelperEventSource(cursor: cursor, wallClock: wallClock),
                                   timeRule: wallClock.rule(format: "Meditation Helper"))
    }
}

extension SessionImporter where Self == MeditationHelperImporter {
    /// Meditation Helper's log, with times kept as the wall-clock times the person saw.
    public static var meditationHelper: MeditationHelperImporter { MeditationHelperImporter() }
}
