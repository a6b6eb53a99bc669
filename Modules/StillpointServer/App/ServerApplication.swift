import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import StillpointCore

/// The HTTP service: opens the store, builds the router and runs until SIGTERM or SIGINT, then finishes the
/// requests in flight, closes the store and returns.
///
/// ```swift
/// try await ServerApplication(configuration: configuration, logger: logger).run()
/// ```
public struct ServerApplication: Sendable {
    public let configuration: ServerConfiguration
    public let logger: Logger

    public init(configuration: ServerConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Serves until a signal asks it to stop.
    public func run() async throws {
        let container = try await ServerStore.open(configuration.store, logger: logger)
        let state = try ServerState(configuration: configuration, container: container, logger: logger)
        let app = Self.application(state, onServerRunning: { [logger, configuration] port in
            logger.notice("serving", metadata: ["host": "\(configuration.host)", "port": "\(port ?? configuration.port)"])
        })
        // Services are told to shut down last first: the event streams end, then the server drains its requests.
        let services = ServiceGroup(services: [app, LiveReportsService(live: state.live)],
                                    gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        do {
            try await services.run()
            await state.live.shutdown()
        } catch {
            await state.live.shutdown()
            try? container.close()
            throw error
        }
        try container.close()
        logger.notice("stopped")
    }

    /// The Hummingbird application of `state`, with its limits; `onServerRunning` hears the port it listens on.
    /// Tests run it in process.
    public static func application(_ state: ServerState, onServerRunning: @escaping @Sendable (_ port: Int?) async -> Void = { _ in })
        -> some ApplicationProtocol {
        let limits = state.configuration.limits
        let idle = limits.idleTimeout.components
        return Application(
            router: ServerRouter.make(state),
            server: .http1(configuration: .init(
                idleTimeout: .nanoseconds(idle.seconds * 1_000_000_000 + idle.attoseconds / 1_000_000_000),
                httpDecoderConfiguration: .init(maxHeaderFieldSize: limits.maximumHeaderBytes, maxHeaderListSize: limits.maximumHeaderBytes,
                                                maxHeaderFieldCount: limits.maximumHeaderFields))),
            configuration: ApplicationConfiguration(address: .hostname(state.configuration.host, port: state.configuration.port),
                                                    serverName: "stillpoint-server"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port) },
            logger: state.logger)
    }
}
