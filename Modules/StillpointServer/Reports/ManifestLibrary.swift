import Foundation
import StillpointCatalog
import StillpointManifest
import StillpointReport
import StillpointStatistics

/// The manifests a report may name: `?config=NAME` is `NAME.yaml` in the server's `--config-dir`, nothing else;
/// without it, the default manifest. A manifest is read on each request, so that an edited file counts at once
/// and its `as_of` (now, unless it says otherwise) is the request's.
///
/// ```swift
/// let manifest = try ManifestLibrary(directory: configDirectory).manifest(named: "yoga-only")
/// ```
struct ManifestLibrary: Sendable {
    let directory: URL?
    /// The manifest without `?config=`, the one the server's ``LiveReports`` holds reports of.
    let defaultManifest: Manifest

    /// The statistic modules every manifest may use: Stillpoint's own.
    static let modules = ModuleCatalog(BuiltInStatistics.modules)

    /// The longest name `config` may have.
    static let maximumNameLength = 100

    /// The library of `directory`, with the built-in default manifest read once.
    ///
    /// - Throws: the manifest's error, should the built-in one ever fail to parse.
    init(directory: URL?) throws {
        self.directory = directory
        defaultManifest = try Manifest(yaml: DefaultManifest.yaml, file: "the default manifest")
    }

    func manifest(named name: String?) throws -> Manifest {
        guard let name else { return defaultManifest }
        // Letters, digits, - and _: no /, no .., nothing that leaves the folder.
        guard (1...Self.maximumNameLength).contains(name.count),
              name.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
        else {
            throw Problem(.badRequest, "the query parameter config '\(name.prefix(Self.maximumNameLength))' is not a manifest's name; "
                          + "use the NAME of a NAME.yaml in the server's config folder: letters, digits, - and _")
        }
        guard let directory else {
            throw Problem(.notFound, "there is no manifest '\(name)': this server has no config folder; leave out config for the default "
                          + "manifest, or start the server with --config-dir")
        }
        let url = directory.appendingPathComponent("\(name).yaml")
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw Problem(.notFound, "there is no manifest '\(name)' in the server's config folder; leave out config for the default manifest")
        }
        let problems = Manifest.validate(contentsOf: url, modules: Self.modules, formats: ReportRenderers.builtIn.formats)
        guard problems.isEmpty else {
            // The server's own file is wrong, not the request: the administrator must fix it.
            throw Problem(.internalServerError, "the manifest '\(name)' of this server is not valid (\(ManifestErrors(problems).summary)); "
                          + "its administrator must fix it with `stillpoint validate`")
        }
        return try Manifest.load(contentsOf: url, formats: ReportRenderers.builtIn.formats)
    }
}
