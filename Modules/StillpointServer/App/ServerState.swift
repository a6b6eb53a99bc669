import Foundation
import Logging
import StillpointCore
import StillpointManifest
import StillpointReport

/// What every route shares: the configuration, the store, the reports kept per practitioner and who may see what.
///
/// ```swift
/// let state = try ServerState(configuration: configuration, container: container, logger: logger)
/// let router = ServerRouter.make(state)
/// ```
public final class ServerState: Sendable {
    public let configuration: ServerConfiguration
    public let container: PersistentContainer
    public let logger: Logger
    /// Every practitioner's report, held in memory for the server's lifetime and kept current from the change log
    /// (docs/live-reports.md); ``ServerApplication`` shuts it down before the store closes.
    public let live: LiveReports
    /// The routes registered, for 405s and the OpenAPI document.
    public let routes = RouteTable()
    /// The requests answered, by route, for `GET /metrics`.
    let requestMetrics = RequestMetrics()
    /// Who may see what, by bearer token.
    public let access: AccessControl
    /// The manifests a report may name, the default one read once at start.
    let manifests: ManifestLibrary

    /// - Throws: the built-in default manifest's error, should it ever fail to parse.
    public init(configuration: ServerConfiguration, container: PersistentContainer, logger: Logger) throws {
        self.configuration = configuration
        self.container = container
        self.logger = logger
        manifests = try ManifestLibrary(directory: configuration.configDirectory)
        let live = LiveReports(container: container, manifests: [LiveReports.defaultManifest: manifests.defaultManifest],
                               modules: ManifestLibrary.modules, log: { [logger] line in logger.info("\(line)") })
        self.live = live
        access = AccessControl(adminToken: configuration.adminToken,
                               tokens: PractitionerTokenCache(container: container, isStoreStale: { live.isStale }))
    }
}
