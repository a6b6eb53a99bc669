import Foundation

/// Why an import stopped part-way, and how far it got: the batches in ``summary`` are saved.
///
/// ```swift
/// } catch let error as ImportOperationError {
///     print(error.summary.batchesSaved, error.position ?? 0, error.underlying)
/// }
/// ```
public struct ImportOperationError: Error, Sendable, LocalizedError, CustomStringConvertible {
    /// What is saved: every batch counted here is in the store.
    public let summary: ImportSummary
    /// The position (line or row) of the record being read or stored when it stopped, if known.
    public let position: Int?
    /// What went wrong: the source's read error, a save error, a schema error.
    public let underlying: any Error

    public init(summary: ImportSummary, position: Int?, underlying: any Error) {
        self.summary = summary
        self.position = position
        self.underlying = underlying
    }

    public var description: String {
        let place = position.map { " at record \($0)" } ?? ""
        return "the import stopped\(place): \(underlying). \(summary.recordsSaved) records in \(summary.batchesSaved) batches "
            + "are saved; importing again is safe, since records are matched by key"
    }

    public var errorDescription: String? { description }
}
