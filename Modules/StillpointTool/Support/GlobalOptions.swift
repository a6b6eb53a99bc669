import ArgumentParser
import Logging

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Log what happens, to standard error.")
    var verbose = false

    /// Sets up swift-log for the command: warnings only, or everything with `--verbose`.
    func bootstrapLogging() -> Logger {
        let level: Logger.Level = verbose ? .debug : .warning
        LoggingSystem.bootstrap { label in
            var handler = VisibleLogHandler(StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
        return Logger(label: "stillpoint")
    }
}
