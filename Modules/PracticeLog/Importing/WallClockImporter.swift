import Foundation

/// An importer of an export that writes times without a zone (wall-clock times), read in ``timeZone`` when one is
/// given: a practitioner's home time zone takes its place when none is (``SessionImporter/withHomeTimeZone(_:)``).
///
/// Conformers: ``InsightTimerImporter``, ``MeditationHelperImporter``, ``GarminImporter``, ``GenericCSVImporter``.
///
/// ```swift
/// let importer = InsightTimerImporter().withHomeTimeZone(berlin)   // nil for InsightTimerImporter(timeZone: tokyo)
/// ```
public protocol WallClockImporter: SessionImporter {
    /// The zone of the file's times without one; `nil`: the wall-clock rule (``WallClockTime``).
    var timeZone: TimeZone? { get set }
}

extension WallClockImporter {
    /// This importer reading its times in `zone`; `nil` when it was given a zone of its own.
    public func withHomeTimeZone(_ zone: TimeZone) -> (any SessionImporter)? {
        guard timeZone == nil else { return nil }
        var importer = self
        importer.timeZone = zone
        return importer
    }
}

extension InsightTimerImporter: WallClockImporter {}
extension MeditationHelperImporter: WallClockImporter {}
extension GarminImporter: WallClockImporter {}
extension GenericCSVImporter: WallClockImporter {}
