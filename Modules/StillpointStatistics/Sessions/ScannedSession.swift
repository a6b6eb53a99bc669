import Foundation

/// One qualifying session as a scan reads it: only what statistics need, no managed object.
public struct ScannedSession: Sendable, Hashable {
    public var start: Date
    public var duration: TimeInterval
    /// The session's own zone, where known; day rules fall back to the report's zone.
    public var timeZone: TimeZone?
}
