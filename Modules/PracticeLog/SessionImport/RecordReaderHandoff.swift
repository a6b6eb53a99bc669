import Foundation
import StillpointCore
import Synchronization

/// Hands the reader made (and checked) before the store was opened to the import operation, which reads it on
/// its context's thread, and keeps where the file broke off.
///
/// A file that breaks off part-way (``ImportDataError``: a quote never closed, a record over 1 MiB, an export
/// cut short) ends the source instead of failing the operation, so the sessions read before the broken line
/// are saved with the last batch; the import then reports that line. A read error (a damaged archive) still
/// fails the operation, since the bytes read last may be wrong.
///
/// Sendable without a promise: the reader, not `Sendable`, is sent into the lock when this is made and taken
/// out once by ``takeSource()``; the rest is values.
final class RecordReaderHandoff: Sendable {
    private struct Outcome: Sendable {
        var stoppedBy: ImportDataError?
        var leftOut: [String: Int] = [:]
    }

    private let reader: Mutex<SessionRecordReader?>
    private let outcome = Mutex(Outcome())

    init(_ reader: sending SessionRecordReader) {
        self.reader = Mutex(reader)
    }

    /// Puts a reader of `url` by `importer` in place of the one not taken yet (the file read again with a home time
    /// zone); `false` when the source was taken already.
    func replace(reading url: URL, with importer: any SessionImporter) throws -> Bool {
        try reader.withLock { reader in
            guard reader != nil else { return false }
            reader = try importer.makeRecordReader(url: url)
            return true
        }
    }

    /// Where the file broke off, if it did.
    var stop: ImportDataError? { outcome.withLock { $0.stoppedBy } }

    /// Rows left out as not practice, by type, once the file was read to its end.
    var notPractice: [String: Int] { outcome.withLock { $0.leftOut } }

    /// The reader as the import operation's source of the sessions of the practitioner with row id
    /// `practitioner`; the first call only.
    func takeSource(practitioner: Int64) throws -> any ImportRecordSource {
        guard let reader = reader.withLock({ $0.take() }) else { throw RecordReaderTakenError() }
        return Source(base: SessionImportSource(reader: reader, practitioner: practitioner), input: self)
    }

    /// The reader as the source of sessions that name their practitioner, one of `owners`; the first call only.
    func takeSource(owners: [String: SessionImportSource.Owner]) throws -> any ImportRecordSource {
        guard let reader = reader.withLock({ $0.take() }) else { throw RecordReaderTakenError() }
        return Source(base: SessionImportSource(reader: reader, owners: owners), input: self)
    }

    private struct Source: ImportRecordSource {
        var base: SessionImportSource
        let input: RecordReaderHandoff

        mutating func next() throws -> ImportSourceElement? {
            do {
                guard let element = try base.next() else {
                    let counts = base.notPractice
                    input.outcome.withLock { $0.leftOut = counts }
                    return nil
                }
                return element
            } catch let error as ImportDataError {
                input.outcome.withLock { $0.stoppedBy = error }
                return nil
            }
        }
    }
}
