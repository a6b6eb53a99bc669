import Foundation

/// Turns one kind of export into session records, streaming.
///
/// Each importer is a small `Sendable` value holding its options; the built-in ones are listed in
/// ``SessionImporters/builtIn``. Call sites read as `importer: .insightTimer` or `.appleHealth`.
///
/// ```swift
/// func load(_ url: URL, with importer: some SessionImporter) throws {
///     let reader = try importer.makeRecordReader(url: url)   // throws ImportFormatError on a wrong header
///     while let event = try reader.next() { ... }
/// }
/// try load(url, with: .insightTimer(timeZone: TimeZone(identifier: "Europe/Berlin")))
/// ```
public protocol SessionImporter: Sendable {
    /// A stable identifier, in `kebab-case`: `insight-timer`, `apple-health`, `csv`.
    static var id: String { get }

    /// An importer with its default options.
    init()

    /// Opens `url` and checks its header or root, so a file in the wrong format fails here, before any record.
    ///
    /// - Throws: ``ImportFormatError`` when the file is not in this format; ``ImportReadError`` when it
    ///   cannot be read; ``ImportDataError`` when its first record already breaks a limit (over 1 MiB).
    ///
    /// The path `/dev/stdin` reads standard input, once: make one reader per import. A format that must seek
    /// (a ZIP archive) refuses a pipe with an ``ImportFormatError``.
    func makeRecordReader(url: URL) throws -> SessionRecordReader

    /// The column naming each row's practitioner, when the importer reads one (``GenericCSVImporter``): its records
    /// then carry ``SessionRecord/practitioner``, and ``SessionImport`` records one run per practitioner.
    var practitionerColumn: String? { get }

    /// The importer reading times written without a zone in `zone`, a practitioner's home time zone, when it was
    /// given no zone (``WallClockImporter``); `nil` when it was, or when its times are not wall-clock times.
    func withHomeTimeZone(_ zone: TimeZone) -> (any SessionImporter)?

    /// The importer reading the times without a zone of each row in the home time zone of the practitioner the
    /// row names (by id), when it was given no zone (``GenericCSVImporter``); `nil` otherwise.
    func withHomeTimeZones(_ zones: [String: TimeZone]) -> (any SessionImporter)?
}

extension SessionImporter {
    /// No practitioner column: every session is the import's practitioner's.
    public var practitionerColumn: String? { nil }

    /// Times that are not wall-clock times: no home time zone applies.
    public func withHomeTimeZone(_ zone: TimeZone) -> (any SessionImporter)? { nil }

    /// No practitioner column: no row names a practitioner.
    public func withHomeTimeZones(_ zones: [String: TimeZone]) -> (any SessionImporter)? { nil }

    /// The importer's stable identifier, ``SessionImporter/id``.
    public var id: String { Self.id }
}
