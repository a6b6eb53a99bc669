import Foundation
import Testing
@testable import PracticeLog

/// Inputs that `Fuzz/FuzzCSV` found to crash the generic CSV importer, minimized; each must now read as rows or
/// issues. (`Scripts/fuzz.sh 60 FuzzCSV` looks for more.)
@Suite("Generic CSV importer: fuzzer findings")
struct GenericCSVImporterFuzzTests {
    @Test("a date with a combining mark is an invalid date, not a trap in DateFormatter")
    func combiningMarkInPatternDate() throws {
        let directory = try ImportFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // "2" + U+0325 COMBINING RING BELOW: Foundation's DateFormatter stopped parsing inside the character and
        // trapped with "Incorrect range".
        let text = "Beginn;Ende;Art\n2\u{325};;\n05.03.2024 07:30;05.03.2024 07:3\u{301}0;Yoga\n"
        let url = try ImportFixtures.write(text, named: "combining.csv", in: directory)
        let importer = GenericCSVImporter.csv(startColumn: "Beginn", duration: .end("Ende"), kindColumn: "Art",
                                              dateFormat: "dd.MM.yyyy HH:mm", delimiter: ";")
        let result = try ImportFixtures.read(url, with: importer)
        #expect(result.records.isEmpty)
        #expect(result.issues.map(\.description) == [
            "line 2: Beginn '2\u{325}' is not in the format dd.MM.yyyy HH:mm",
            "line 3: Ende '05.03.2024 07:3\u{301}0' is not in the format dd.MM.yyyy HH:mm",
        ])
    }
}
