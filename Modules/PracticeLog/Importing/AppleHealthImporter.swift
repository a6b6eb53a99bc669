import Foundation
import ZIPFoundation

/// Reads Apple Health's "Export All Health Data": `export.zip`, or the `export.xml` inside it.
///
/// Mindful sessions become `meditation`; yoga and related workouts become the kinds in ``workoutKinds``.
/// Everything else in the export is skipped without being decoded. A session written twice (same source,
/// start and end) is kept once, and the copy is reported as an issue.
///
/// Dates carry an offset (`2019-04-10 08:10:34 -0500`): the session is that instant, and it carries the
/// zone of its `HKTimeZone` metadata entry where the export has one, else its offset as a zone
/// (`GMT-0500`), so its day is the day it was lived, whatever zone the report runs in.
///
/// A document that ends early (an export cut short) or whose markup breaks part-way is an
/// ``ImportDataError`` naming the line, never a quiet end: sessions after that line were not read. The XML
/// can come from a pipe (`/dev/stdin`); a ZIP cannot, since its directory is read from its end.
///
/// ```swift
/// let reader = try AppleHealthImporter().makeRecordReader(url: URL(filePath: "export.zip"))
/// ```
public struct AppleHealthImporter: SessionImporter {
    public static let id = "apple-health"

    /// The workouts imported, by `workoutActivityType`, with the kind each becomes.
    public static let defaultWorkoutKinds: [String: String] = [
        "HKWorkoutActivityTypeYoga": "yoga",
        "HKWorkoutActivityTypeMindAndBody": "mind_and_body",
        "HKWorkoutActivityTypePilates": "pilates",
        "HKWorkoutActivityTypeFlexibility": "flexibility",
        "HKWorkoutActivityTypeTaiChi": "tai_chi",
    ]

    /// The workouts imported, by `workoutActivityType`, with the kind each becomes.
    public var workoutKinds: [String: String]

    public init() {
        self.init(workoutKinds: Self.defaultWorkoutKinds)
    }

    public init(workoutKinds: [String: String]) {
        self.workoutKinds = workoutKinds
    }

    public func makeRecordReader(url: URL) throws -> SessionRecordReader {
        do {
            return try open(url)
        } catch {
            throw ImportReadError.wrapping(error, path: url.path, line: nil)
        }
    }

    private func open(_ url: URL) throws -> SessionRecordReader {
        // One source, peeked and then read on: standard input can be read only once.
        let file = try FileChunkSource(url: url)
        let cursor = ByteCursor(source: file)
        // Told apart by content, not name: "PK\u{3}\u{4}" opens a ZIP with entries, "PK\u{5}\u{6}" an empty one.
        if try cursor.hasPrefix([0x50, 0x4B, 3, 4]) || cursor.hasPrefix([0x50, 0x4B, 5, 6]) {
            // A ZIP's directory is at its end, so it is read from a file it can seek in, never from a pipe.
            guard file.isRegularFile else {
                throw ImportFormatError(
                    path: url.path, format: "an export that can be read from a pipe",
                    expected: "the export.xml inside export.zip", found: "a ZIP archive, which can only be read from a file",
                    suggestion: "Give the path of export.zip instead, or pipe the XML inside it: "
                        + "unzip -p export.zip apple_health_export/export.xml | stillpoint import - --format apple-health")
            }
            let entryPath = try Self.exportEntryPath(in: url)
            let source = ZipEntryChunkSource(archiveURL: url, entryPath: entryPath)
            let events = try AppleHealthEventSource(source: source, path: "\(url.path) (\(entryPath))",
                                                    workoutKinds: workoutKinds)
            return SessionRecordReader(url: url, source: events, timeRule: Self.timeRule)
        }
        let events = try AppleHealthEventSource(cursor: cursor, path: url.path, workoutKinds: workoutKinds)
        return SessionRecordReader(url: url, source: events, timeRule: Self.timeRule)
    }

    static let timeRule = "Apple Health times carry their offset: each session keeps its zone (its HKTimeZone "
        + "where the export has one, else its offset), so its day is the day it was lived"

    /// The main export in an `export.zip`: an `.xml` file in `apple_health_export/` (its name is localized,
    /// `export.xml`, `Export.xml`, `exportar.xml`), never the clinical `export_cda.xml`; the largest wins.
    static func exportEntryPath(in url: URL) throws -> String {
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch {
            throw ImportFormatError(
                path: url.path, format: "an Apple Health export",
                expected: "a readable ZIP archive (export.zip)", found: "a damaged or unsupported ZIP archive",
                suggestion: "Export the data from the Health app again, or unzip it and import export.xml.")
        }
        var best: (path: String, rank: (Int, UInt64))?
        for entry in archive where entry.type == .file {
            let path = entry.path
            let parts = path.split(separator: "/")
            guard let name = parts.last?.lowercased(), parts.count <= 2, name.hasSuffix(".xml"),
                  !name.hasSuffix("_cda.xml"), !name.hasPrefix("._"), parts.first != "__MACOSX"
            else { continue }
            // Inside apple_health_export/ first, then the largest.
            let rank = (parts.count == 2 && parts[0] == "apple_health_export" ? 1 : 0, entry.uncompressedSize)
            if let current = best, current.rank >= rank { continue }
            best = (path, rank)
        }
        guard let best else {
            throw ImportFormatError(
                path: url.path, format: "an Apple Health export",
                expected: "apple_health_export/export.xml inside the archive", found: "no such XML file",
                suggestion: "Use the export.zip made by Health → profile → Export All Health Data.")
        }
        return best.path
    }
}

extension SessionImporter where Self == AppleHealthImporter {
    /// Apple Health's export, with the default workout kinds.
    public static var appleHealth: AppleHealthImporter { AppleHealthImporter() }
}
