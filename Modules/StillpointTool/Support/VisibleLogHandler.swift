import Logging
import StillpointReport

/// A log handler that writes through another with the control characters and line breaks of each message and
/// its metadata shown escaped (``ValueText/visible(_:keepingLineBreaks:)``), as every other line of the tool
/// shows them: a file's or a store's name in a `--verbose` line can neither drive the terminal nor forge a line.
///
/// ```swift
/// LoggingSystem.bootstrap { label in VisibleLogHandler(StreamLogHandler.standardError(label: label)) }
/// ```
struct VisibleLogHandler<Wrapped: LogHandler>: LogHandler {
    private var wrapped: Wrapped

    init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    func log(event: LogEvent) {
        var event = event
        event.message = "\(ValueText.visible(event.message.description))"
        event.metadata = event.metadata?.mapValues { .string(ValueText.visible($0.description)) }
        wrapped.log(event: event)
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }
}
