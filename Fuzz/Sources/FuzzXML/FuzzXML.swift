import Foundation
import FuzzSupport
import PracticeLog

/// Feeds one input, as an `export.xml`, to the Apple Health importer: its XML tokenizer (tags, attributes,
/// references, comments, CDATA, the inline DTD) and the walk that turns elements into sessions. Any thrown error
/// is an answer; a trap, a sanitizer report or a hang is a bug.
private let importer = AppleHealthImporter()

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzXML(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzzer.bytes(start, count)
    // "PK\3\4" or "PK\5\6" opens the input as a ZIP archive: ZIPFoundation's parser is not ours to fuzz.
    if count >= 2, bytes[0] == 0x50, bytes[1] == 0x4B { return -1 }
    guard let url = try? InputFile.shared.write(bytes) else {
        fatalError("cannot write the fuzzer's input to a temporary file")
    }
    guard let reader = try? importer.makeRecordReader(url: url) else { return 0 }
    while let event = try? reader.next() {
        if case .record(let record, let line) = event { check(record, line: line) }
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
