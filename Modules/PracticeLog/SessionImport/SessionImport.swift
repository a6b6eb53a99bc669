import Foundation

/// An import of a session export into a store, as `stillpoint import` runs it: standard input kept in a file
/// first, `strict`'s check of every row before anything is written, the run recorded in the store
/// (``ImportRuns``), the sessions saved in batches and linked to the run, and the earlier runs of the same file
/// replaced.
///
/// ``open()`` does everything that needs no store (a file not in the format fails there and changes nothing);
/// ``OpenedSessionImport/run(into:practitioner:progress:)`` then imports into a store.
///
/// An importer with a practitioner column (``SessionImporter/practitionerColumn``) loads the sessions of many
/// people at once: ``open(_:)`` reads the file once first for the practitioners it names, and the run makes
/// those the store does not hold and records one run per practitioner, each session linked to its own.
///
/// ```swift
/// let opened = try SessionImport(file: "sessions.csv", importer: InsightTimerImporter(timeZone: nil)).open()
/// let result = try await opened.run(into: container)
/// print("\(result.summary.inserted) new, \(result.summary.skipped) skipped")
/// ```
public struct SessionImport: Sendable {
    /// The file as given, `-` for standard input: what the run records.
    public var file: String
    public var importer: any SessionImporter
    /// The options that change what the import stores, as given, for the run's record (`--time-zone Europe/Berlin`).
    public var options: String
    /// Check every row first, and import nothing if any would be skipped.
    public var strict: Bool
    /// How many sessions each saved batch holds.
    public var batchSize: Int

    public init(file: String, importer: any SessionImporter, options: String = "", strict: Bool = false, batchSize: Int = 2_000) {
        self.file = file
        self.importer = importer
        self.options = options
        self.strict = strict
        self.batchSize = batchSize
    }

    /// The most standard input kept for one import: beyond it, the input is no export.
    public static let maximumStandardInput = 8 << 30

    /// Whether the import reads standard input (`-`, or `/dev/stdin` by name).
    public var readsStandardInput: Bool { file == "-" || file == "/dev/stdin" }

    /// The file to read, `~` expanded; `/dev/stdin` for standard input.
    public var url: URL {
        file == "-" ? URL(fileURLWithPath: "/dev/stdin") : URL(fileURLWithPath: (file as NSString).expandingTildeInPath)
    }

    /// Keeps standard input, and the import's input as ``open(_:)`` then opens it: all before any store is touched.
    ///
    /// - Throws: what ``keepInput()`` and ``open(_:)`` throw.
    public func open() throws -> OpenedSessionImport {
        try open(try keepInput())
    }

    /// Whether ``open(_:)`` reads the input once before the import: to check it (`strict`), or to find the
    /// practitioners a practitioner column names.
    var readsAhead: Bool { strict || importer.practitionerColumn != nil }

    /// The input to read: standard input kept in a file (it is known by its content's hash, and `strict` or a
    /// practitioner column reads it twice), as is a pipe or device named as a file then; else the file itself.
    ///
    /// - Throws: ``SessionImportError`` when standard input cannot be kept; a read error of standard input.
    public func keepInput() throws -> SessionImportInput {
        let source = url
        guard readsStandardInput || (readsAhead && !Self.isRegularFile(source)) else { return SessionImportInput(file: source) }
        return try SessionImportInput(copying: readsStandardInput ? nil : source, limit: Self.maximumStandardInput)
    }

    /// Checks every row of `input` when `strict`, finds the practitioners of a practitioner column, and opens its
    /// reader: a file not in the format fails here.
    ///
    /// - Throws: ``SessionImportError/wouldSkipRows(count:first:)`` when a `strict` check finds rows it would
    ///   skip; the importer's errors (``ImportFormatError``, ``ImportReadError``, ``ImportDataError``) for a file
    ///   not in the format or that cannot be read. Their messages name `input.url`, the copy of standard input
    ///   when it was kept.
    public func open(_ input: SessionImportInput) throws -> OpenedSessionImport {
        let practitioners = readsAhead ? try Self.readAhead(input.url, importer: importer, strict: strict) : []
        let reader = try importer.makeRecordReader(url: input.url)
        // A device or a pipe named as a file is read once, as it comes: it has no hash to know it by again.
        let contentHash = Self.isRegularFile(input.url) ? try ContentHash.sha256(of: input.url) : ""
        return OpenedSessionImport(import: self, input: input, reader: reader, contentHash: contentHash, practitioners: practitioners)
    }

    /// Reads the whole file once, before anything is written: returns the practitioners its rows name, in the
    /// order they first appear (the set grows with the people, not with the rows); when `strict`, fails if any
    /// row would be skipped, with the first ones.
    private static func readAhead(_ url: URL, importer: any SessionImporter, strict: Bool) throws -> [String] {
        var skipped: [ImportIssue] = []
        var count = 0
        var practitioners: [String] = []
        var seen: Set<String> = []
        let reader = try importer.makeRecordReader(url: url)
        do {
            while let event = try reader.next() {
                switch event {
                case .record(let record, _):
                    if let id = record.practitioner, seen.insert(id).inserted { practitioners.append(id) }
                case .issue(let issue):
                    count += 1
                    if skipped.count < SessionImportError.listedIssues { skipped.append(issue) }
                }
            }
        } catch is ImportDataError where !strict {
            // The import stops at the same line and says so; the practitioners before it are the ones it meets.
        }
        guard strict, count > 0 else { return practitioners }
        throw SessionImportError.wouldSkipRows(count: count, first: skipped)
    }

    static func isRegularFile(_ url: URL) -> Bool {
        var status = stat()
        return stat(url.path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }
}
