import ArgumentParser
import Foundation
import Logging
import StillpointCore
import StillpointServer

/// `stillpoint-server`: reads its options and the administrator's token, and runs ``ServerApplication``.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stillpoint-server",
        abstract: "Serve every practitioner's report over HTTP (docs/serving.md).",
        discussion: """
            The administrator's token comes from the file --admin-token-file names, else from the environment \
            variable STILLPOINT_ADMIN_TOKEN; never from the command line. SIGTERM or SIGINT finishes the requests \
            in flight and exits 0.

            Examples:
              STILLPOINT_ADMIN_TOKEN=$(openssl rand -base64 32) stillpoint-server
              stillpoint-server --store postgresql://stillpoint@db/practice --host 0.0.0.0 --admin-token-file /run/secrets/admin
            """)

    @Option(help: ArgumentHelp("The store: a SQLite file, or a PostgreSQL database's URI.",
                               discussion: "Without it, the default store of `stillpoint report`, made from a demo history on first use.",
                               valueName: "file-or-uri"))
    var store: String?

    @Option(help: "The address to listen on; the loopback address unless told otherwise.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 lets the system choose (the log says which).")
    var port = 8080

    @Option(name: .customLong("config-dir"), help: ArgumentHelp("The folder of the manifests ?config=NAME names (NAME.yaml).", valueName: "dir"))
    var configDirectory: String?

    @Option(name: .customLong("admin-token-file"), help: ArgumentHelp("A file holding the administrator's bearer token.", valueName: "file"))
    var adminTokenFile: String?

    @Option(name: .customLong("max-body-bytes"), help: "The largest request body a JSON route reads, in bytes.")
    var maximumBodyBytes = ServerLimits().maximumBodyBytes

    @Option(name: .customLong("max-import-bytes"), help: "The largest export file an import (POST .../imports) takes, in bytes.")
    var maximumImportBytes = ServerLimits().maximumImportBytes

    @Option(name: .customLong("log-level"), help: "The least important log level written: trace, debug, info, notice, warning, error.")
    var logLevel = "info"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port; use 0 to 65535") }
        guard maximumBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be a positive number of bytes") }
        guard maximumImportBytes > 0 else { throw ValidationError("--max-import-bytes must be a positive number of bytes") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level '\(logLevel)' is not a level; use trace, debug, info, notice, warning or error")
        }
        if let configDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: configDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--config-dir \(configDirectory) is not a folder; name the folder of your NAME.yaml manifests")
            }
        }
    }

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "stillpoint-server")
        var configuration = ServerConfiguration()
        configuration.store = store
        configuration.host = host
        configuration.port = port
        configuration.configDirectory = configDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        configuration.limits.maximumBodyBytes = maximumBodyBytes
        configuration.limits.maximumImportBytes = maximumImportBytes
        do {
            configuration.adminToken = try AdminToken(file: adminTokenFile, environment: ProcessInfo.processInfo.environment)
        } catch {
            throw StartFailure(error.description, status: adminTokenFile == nil ? 64 : 66).reported()
        }
        if configuration.adminToken == nil {
            logger.warning("no administrator token: the administration routes answer 403; set STILLPOINT_ADMIN_TOKEN or give --admin-token-file")
        }
        do {
            try await ServerApplication(configuration: configuration, logger: logger).run()
        } catch let error as StoreError {
            throw StartFailure(error.description, status: error.exitStatus).reported()
        }
    }
}
