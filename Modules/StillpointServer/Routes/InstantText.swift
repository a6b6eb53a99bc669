import Foundation
import StillpointCore

/// An instant as the API writes it: ISO 8601 in UTC, with milliseconds when it has a fraction of a second, as
/// `stillpoint export` writes dates (`2024-03-05T07:30:00Z`, `2024-03-05T07:30:00.250Z`).
enum InstantText {
    static func string(_ date: Date) -> String {
        var writer = ExportDateWriter()
        var bytes: [UInt8] = []
        writer.append(secondsSince1970: date.timeIntervalSince1970, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
