import Foundation

/// The name a report shows for a time zone: its IANA identifier, except that every spelling of UTC is `UTC`.
///
/// Foundation names the same zone `GMT`, `UTC` or `Etc/UTC` depending on how it was made and on the machine's
/// `TZ`; a report says `UTC` in every format and place, whichever it was.
///
/// ```swift
/// ZoneName.of(TimeZone(identifier: "Etc/UTC")!)         // "UTC"
/// ZoneName.of(TimeZone(identifier: "GMT")!)             // "UTC"
/// ZoneName.of(TimeZone(identifier: "Europe/Berlin")!)   // "Europe/Berlin"
/// ```
public enum ZoneName {
    /// The identifiers of UTC in the IANA database (its `backward` links) and in Foundation.
    static let utcAliases: Set<String> = [
        "UTC", "GMT", "UCT", "Zulu", "Universal", "Greenwich", "GMT0", "GMT+0", "GMT-0",
        "Etc/UTC", "Etc/GMT", "Etc/UCT", "Etc/Zulu", "Etc/Universal", "Etc/Greenwich", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0",
    ]

    /// The zone's name as reports show it.
    public static func of(_ zone: TimeZone) -> String {
        utcAliases.contains(zone.identifier) ? "UTC" : zone.identifier
    }
}
