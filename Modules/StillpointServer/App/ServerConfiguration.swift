import Foundation

/// How `stillpoint-server` runs: where it listens, which store it serves, where named manifests live, the
/// administrator's token and the limits of a request.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.store = "postgresql://stillpoint@db/practice"
/// configuration.adminToken = try AdminToken(environment: ProcessInfo.processInfo.environment)
/// ```
public struct ServerConfiguration: Sendable {
    /// The address to listen on: the loopback address unless told otherwise.
    public var host = "127.0.0.1"
    /// The port; 0 lets the system choose a free one (the log says which).
    public var port = 8080
    /// A SQLite file or a PostgreSQL URI; `nil`: the default store, made from a demo history on first use.
    public var store: String?
    /// The folder whose `NAME.yaml` manifests `?config=NAME` names; `nil`: only the default manifest.
    public var configDirectory: URL?
    /// The administrator's token; `nil`: the administration routes answer 403.
    public var adminToken: AdminToken?
    public var limits = ServerLimits()

    public init() {}
}
