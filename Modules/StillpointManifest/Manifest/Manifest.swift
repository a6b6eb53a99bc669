import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

/// A report's configuration, read from YAML: which statistics to compute, in which order and with which
/// parameters, over which sessions, and how to write the result.
///
/// ```yaml
/// version: 1
/// store: practice.sqlite
/// time_zone: Europe/Berlin
/// day_starts_at: 4h
/// filters: {from: 2024-01-01, kinds: [yoga, meditation]}
/// modules: [TotalStatistics, StreakStatistics]
/// statistics:
///   - session_count
///   - id: current_streak
///   - id: current_streak
///     as: current_streak_10m
///     parameters: {minimum_duration: 10m}
/// output: {formats: [text, json]}
/// ```
///
/// ```swift
/// let manifest = try Manifest.load(contentsOf: URL(fileURLWithPath: "Config/default.yaml"))
/// let entries = try manifest.prepare(catalog: try BuiltInStatistics.catalog())
/// ```
///
/// Loading checks the structure and reports every problem at once (``ManifestErrors``), each with its file,
/// line and column; ``prepare(catalog:)`` then checks ids and parameters against the statistics themselves.
public struct Manifest: Sendable {
    /// The manifest version this Stillpoint reads.
    public static let currentVersion = 1

    /// The path of the file it was read from, for messages and for resolving a relative `store`.
    public var file: String?
    public var version: Int
    /// The store's path as written; see ``storeURL``.
    public var store: String?
    /// `time_zone`, `day_starts_at`, `as_of` and the `filters`, shared by every statistic.
    public var environment: ReportEnvironment
    /// The `modules:` list: the names of the statistic modules whose statistics the entries may name, in
    /// order; `nil` registers every module the tool has. See ``prepare(modules:)``.
    public var modules: [String]?
    /// The `statistics:` list, in order.
    public var entries: [ManifestEntry]
    /// The statistics declared under `custom_statistics:`, in order.
    public var customStatistics: [CustomStatistic]
    public var output: ManifestOutput

    /// The manifest's lines, to show the line of an error found after loading.
    var sourceLines: [String] = []
    /// Where each custom statistic's id is written.
    var customLocations: [String: SourceLocation] = [:]
    /// Custom statistics whose definitions had errors: entries naming them are not reported again as unknown.
    var unresolvedIDs: Set<String> = []
    /// Where each name of `modules:` is written.
    var moduleLocations: [String: SourceLocation] = [:]
    /// Where the manifest's first key is, for a problem of the whole manifest.
    var rootLocation: SourceLocation?

    public init(entries: [ManifestEntry] = [], environment: ReportEnvironment = ReportEnvironment(),
                customStatistics: [CustomStatistic] = [], output: ManifestOutput = ManifestOutput(),
                store: String? = nil, file: String? = nil, modules: [String]? = nil) {
        self.file = file
        self.modules = modules
        self.version = Self.currentVersion
        self.store = store
        self.environment = environment
        self.entries = entries
        self.customStatistics = customStatistics
        self.output = output
    }

    /// Reads a manifest from YAML text; `file` names it in error messages.
    ///
    /// Custom statistics are checked against `schema`, the practice log's unless said otherwise; `output.formats`
    /// may name any of `formats`, the built-in ones unless renderers were added (`ReportRenderers.formats`).
    ///
    /// - Throws: ``ManifestErrors`` with every problem of the text: malformed YAML, unknown keys, wrong types.
    public init(yaml: String, file: String? = nil, schema: Schema = Session.schema,
                formats: [ReportFormat] = ReportFormat.builtIn) throws(ManifestErrors) {
        var reader = ManifestReader(yaml: yaml, file: file, schema: schema, formats: formats)
        let manifest = reader.read()
        guard reader.errors.isEmpty else { throw ManifestErrors(reader.errors) }
        self = manifest
    }

    /// Reads the manifest at `url`.
    ///
    /// ```swift
    /// let manifest = try Manifest.load(contentsOf: URL(fileURLWithPath: "Config/examples/yoga-only.yaml"))
    /// ```
    public static func load(contentsOf url: URL, schema: Schema = Session.schema,
                            formats: [ReportFormat] = ReportFormat.builtIn) throws(ManifestErrors) -> Manifest {
        try Manifest(yaml: try text(of: url), file: url.path, schema: schema, formats: formats)
    }

    /// The store's location: `store` with `~` expanded, relative to the manifest's folder; `nil` when not given.
    public var storeURL: URL? {
        store.map { URL(fileURLWithPath: resolve($0)) }
    }

    /// Where the report goes: `output.path` with `~` expanded, relative to the manifest's folder like `store`;
    /// `-` (standard output) as is; `nil` when not given.
    ///
    /// ```swift
    /// // output: {path: reports/practice} in /home/me/report.yaml
    /// manifest.outputPath   // "/home/me/reports/practice"
    /// ```
    public var outputPath: String? {
        guard let path = output.path else { return nil }
        return path == "-" ? path : resolve(path)
    }

    /// `path` with `~` expanded, relative to the manifest's folder (the working directory for a manifest
    /// that is not a file).
    private func resolve(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL.path }
        let folder = file.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return folder.appendingPathComponent(expanded).standardizedFileURL.path
    }

    /// The manifest's text; a file that cannot be read is an ``ManifestError/isUnreadableFile`` error, one
    /// that is not UTF-8 an ordinary one.
    static func text(of url: URL) throws(ManifestErrors) -> String {
        let unreadable = { (reason: String) in
            ManifestErrors([ManifestError(
                location: nil,
                message: "cannot read the manifest \(url.path): \(reason); pass the path of a YAML manifest such as Config/default.yaml",
                isUnreadableFile: true)])
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { throw unreadable("there is no such file") }
        guard !isFolder.boolValue else { throw unreadable("it is a folder") }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw unreadable("it cannot be read (check its permissions)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ManifestErrors([ManifestError(
                location: nil, message: "the manifest \(url.path) is not UTF-8 text; save it as UTF-8 YAML")])
        }
        return text
    }
}
