import Foundation
import Logging
import StillpointCore
import StillpointReport

/// What every route shares: the configuration, the store, the reports kept per practitioner and who may see what.
///
/// ```swift
/// let state = ServerState(configuration: configuration, container: container, logger: logger)
/// let router = ServerRouter.make(state)
/// ```
public final class ServerState: Sendable {
    public let configuration: ServerConfiguration
    public let container: PersistentContainer
    public let logger: Logger
    /// Each practitioner's report runner and digest, caught up with the change log on each request.
    public let reports: PractitionerReports
    /// The routes registered, for 405s and the OpenAPI document.
    public let routes = RouteTable()
    /// Who may see what, by bearer token.
    public let access: AccessControl

    public init(configuration: ServerConfiguration, container: PersistentContainer, logger: Logger) {
        self.configuration = configuration
        self.container = container
        self.logger = logger
        access = AccessControl(adminToken: configuration.adminToken, container: container)
        reports = PractitionerReports(container: container, log: { [logger] line in logger.debug("\(line)") })
    }
}
