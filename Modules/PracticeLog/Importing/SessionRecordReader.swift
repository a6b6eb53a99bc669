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

    init(url: URL, source: any ImportEventSource) {
        self.url = url
        self.source = source
    }

    /// The next session or skipped row, or `nil` once the file is done.
    ///
    /// - Throws: ``ImportReadError`` when the file stops being readable part-way (a damaged archive, a
    ///   read error); after that the reader yields nothing more.
    public func next() throws -> ImportEvent? {
        guard !failed else { return nil }
        do {
            return try source.next()
        } catch {
            failed = true
            throw ImportReadError(path: url.path, line: source.line, underlying: error)
        }
    }

    /// Largest number of input bytes held at once; tests use it to check that reading streams.
    var peakBufferedBytes: Int { source.peakBufferedBytes }
}
