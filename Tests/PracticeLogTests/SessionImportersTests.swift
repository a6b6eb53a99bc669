import Foundation
import PracticeLog
import Testing

/// The importer of an upload, by format and the practitioner's home zone.
@Suite("SessionImporters.importer(withID:timeZone:)")
struct SessionImportersTests {
    @Test
    func everyBuiltInFormatHasAnImporterThatReadsWallClockTimesInTheZone() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")
        for type in SessionImporters.builtIn {
            #expect(SessionImporters.importer(withID: type.id, timeZone: berlin)?.id == type.id)
        }
        #expect(SessionImporters.importer(withID: "pdf", timeZone: nil) == nil)
        let url = try SessionImportTests.write("start,duration\n2024-07-01T07:00:00,600\n")
        let reader = try #require(SessionImporters.importer(withID: GenericCSVImporter.id, timeZone: berlin)).makeRecordReader(url: url)
        guard case .record(let record, _)? = try reader.next() else { Issue.record("no record"); return }
        #expect(record.start == ISOInstant.parse("2024-07-01T05:00:00Z"))
        #expect(record.timeZone == "Europe/Berlin")
    }
}
