import Foundation

/// Pulls sessions and skipped rows out of one export, one at a time, holding only a small buffer.
///
/// Made by ``SessionImporter/makeRecordReader(url:)``; not `Sendable`: use it where it was made.
///
/// ```swift
/// let reader = try InsightTimerImporter().makeRecordReader(url: url)
/// while let event = try reader.next() {
///     if case .record(let record, _) = event { batch.append(record) }
/// }
/// ```
public final class SessionRecordReader {
    /// The file being read.
    public let url: URL
    private let source: any ImportEventSource
    private var failed = false
    /// When the reader was made: starts more than ``ImportLimits/futureMargin`` after it are refused.
    private let now: Date
    /// How the file's times were read, in one line for the person importing it: `Insight Timer times carry
    /// no zone: read as the wall-clock times you saw (--time-zone Europe/Berlin to give their zone)`.
    public let timeRule: String?

    init(url: URL, source: any ImportEventSource, timeRule: String? = nil, now: Date = Date()) {
        self.url = url
        self.source = source
        self.timeRule = timeRule
        self.now = now
    }

    /// Rows left out because they are not practice (a run in an activity list), counted by their type
    /// instead of listed one by one: `["Running": 12, "Cycling": 3]`.
    public var notPractice: [String: Int] { source.notPractice }

    /// The next session or skipped row, or `nil` once the file is done.
    ///
    /// Every format passes this door: a session outside ``ImportLimits`` (a duration that is not finite,
    /// not positive or over 7 days; a start before 1970 or more than a day ahead) comes out as an issue
    /// with its line, never as a record; so does one whose text holds a NUL character
    /// (``ImportLimits/textProblem(of:)``), which not every store can keep.
    ///
    /// - Throws: ``ImportDataError`` when the file breaks off part-way (a quote never closed, a record over
    ///   ``ImportLimits/maxRecordBytes``, broken markup, a document cut short); ``ImportReadError`` when it
    ///   stops being readable (a damaged archive, a read error). After either the reader yields nothing more,
    ///   and the rows after the error's line were not read.
    public func next() throws -> ImportEvent? {
        guard !failed else { return nil }
        let event: ImportEvent?
        do {
            event = try source.next()
        } catch {
            failed = true
            throw ImportReadError.wrapping(error, path: url.path, line: source.line)
        }
        if case .record(let record, let line)? = event,
           let problem = ImportLimits.problem(start: record.start, duration: record.duration, now: now)
               ?? ImportLimits.textProblem(of: record) {
            return .issue(ImportIssue(line: line, reason: problem))
        }
        return event
    }

    /// Largest number of input bytes held at once; tests use it to check that reading streams.
    var peakBufferedBytes: Int { source.peakBufferedBytes }
}
