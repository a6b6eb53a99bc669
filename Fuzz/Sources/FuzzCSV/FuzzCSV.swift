import Foundation
import FuzzSupport
import PracticeLog

/// Feeds one input, as a file, to every CSV importer configuration a person can choose: Insight Timer's export
/// and generic spreadsheets with each kind of duration column, date format and delimiter. Any thrown error is
/// an answer; a trap, a sanitizer report or a hang is a bug.
private let importers: [any SessionImporter] = [
    InsightTimerImporter(),
    InsightTimerImporter(timeZone: TimeZone(identifier: "Europe/Berlin")),
    GenericCSVImporter(),
    GenericCSVImporter(startColumn: "Date", duration: .minutes("Minutes"), kindColumn: "Type", noteColumn: "Notes"),
    GenericCSVImporter(startColumn: "Beginn", duration: .end("Ende"), kindColumn: "Art",
                       dateFormat: "dd.MM.yyyy HH:mm", timeZone: TimeZone(identifier: "Europe/Vienna"),
                       delimiter: ";"),
    GenericCSVImporter(startColumn: "start", duration: .hoursMinutesSeconds("length"), kindColumn: "kind",
                       noteColumn: "note", delimiter: "\t"),
]

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzCSV(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let url = try? InputFile.shared.write(Fuzzer.bytes(start, count)) else {
        fatalError("cannot write the fuzzer's input to a temporary file")
    }
    for importer in importers {
        guard let reader = try? importer.makeRecordReader(url: url) else { continue }
        while let event = try? reader.next() {
            if case .record(let record, let line) = event { check(record, line: line) }
        }
    }
    return 0
}

/// What every imported session promises the store and the reports: a finite start and a finite duration that is
/// not negative (an infinite one imported today crashes every later text report).
private func check(_ record: SessionRecord, line: Int) {
    guard record.duration.isFinite, record.duration >= 0, record.start.timeIntervalSince1970.isFinite else {
        fatalError("line \(line) became a session starting \(record.start.timeIntervalSince1970) s after 1970, "
                   + "lasting \(record.duration) s")
    }
}
