import Foundation
@testable import PracticeLog

/// Fixture files and helpers shared by the importer tests.
enum ImportFixtures {
    /// `Tests/PracticeLogTests/Fixtures`, found from this file so tests run from any directory.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    /// Everything a reader yields, with the lines of the records.
    struct Drained {
        var records: [SessionRecord] = []
        var recordLines: [Int] = []
        var issues: [ImportIssue] = []
    }

    static func drain(_ reader: SessionRecordReader) throws -> Drained {
        var drained = Drained()
        while let event = try reader.next() {
            switch event {
            case .record(let record, let line):
                drained.records.append(record)
                drained.recordLines.append(line)
            case .issue(let issue):
                drained.issues.append(issue)
            }
        }
        return drained
    }

    static func read(_ name: String, with importer: some SessionImporter) throws -> Drained {
        try read(url(name), with: importer)
    }

    static func read(_ url: URL, with importer: some SessionImporter) throws -> Drained {
        try drain(importer.makeRecordReader(url: url))
    }

    /// A new empty directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `text` to a new file in `directory`.
    static func write(_ text: String, named name: String, in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    /// Writes a large file a piece at a time, so the test itself stays small in memory.
    static func writeLarge(named name: String, in directory: URL, header: String, footer: String = "",
                           targetBytes: Int, piece: (Int) -> String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data(header.utf8))
        var written = header.utf8.count
        var index = 0
        var batch = ""
        while written < targetBytes {
            batch.append(piece(index))
            index += 1
            if batch.utf8.count >= 64 * 1024 {
                try handle.write(contentsOf: Data(batch.utf8))
                written += batch.utf8.count
                batch = ""
            }
        }
        try handle.write(contentsOf: Data((batch + footer).utf8))
        return url
    }

    /// A UTC instant from an ISO 8601 string, parsed by Foundation to check the importers' own parsers.
    static func instant(_ iso: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        guard let date = formatter.date(from: iso) else { fatalError("bad test date \(iso)") }
        return date
    }
}
