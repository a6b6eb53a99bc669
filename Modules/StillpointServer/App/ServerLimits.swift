import Foundation

/// What one request may take of the server: the size of its body and headers, and how long it and an idle
/// connection may last (docs/serving.md, "Limits").
///
/// ```swift
/// var limits = ServerLimits()
/// limits.maximumBodyBytes = 4 << 20
/// ```
public struct ServerLimits: Sendable, Equatable {
    /// The largest request body a JSON route reads, in bytes: 1 MiB. A larger one is a 413.
    public var maximumBodyBytes = 1 << 20
    /// The largest export file `POST /v1/practitioners/{id}/imports` takes, in bytes: 64 MiB, read as it arrives
    /// into a temporary file. A larger one is a 413, and nothing is imported.
    public var maximumImportBytes = 64 << 20
    /// The largest header field and the largest header block, in bytes: 16 KiB. A larger one closes the connection.
    public var maximumHeaderBytes = 16 << 10
    /// The most header fields a request may have.
    public var maximumHeaderFields = 100
    /// How long a connection may stay without a byte read before the server closes it: a slow client cannot
    /// hold a connection open.
    public var idleTimeout: Duration = .seconds(30)
    /// How long the server works on one request before it answers 503 instead.
    public var requestTimeout: Duration = .seconds(30)
    /// The most report event streams open at once: 1,000. Another one answers 503 with `Retry-After`.
    public var maximumEventStreams = 1_000

    public init() {}
}
