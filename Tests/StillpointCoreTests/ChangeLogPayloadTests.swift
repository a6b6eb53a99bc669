import Foundation
import Testing
@testable import StillpointCore

@Suite("Change log payload")
struct ChangeLogPayloadTests {
    @Test(arguments: ["Item", "Quote\"d", "Back\\slash", "Line\nbreak\tand\r\u{1}\u{1F}", "Yōga 🧘", ""])
    func whatIsWrittenByHandReadsBackWithJSONDecoder(name: String) throws {
        let changes: [String: ChangeLogPayload.EntityChanges] = [
            name: .init(inserted: [[1, 5], [9, 9]], updated: [], deleted: [[-3, 2], [Int64.max - 1, Int64.max]], attributes: [name, "title"]),
            "Other": .init(inserted: [], updated: [[7, 7]], deleted: [], attributes: []),
        ]
        let payload = ChangeLogPayload.text(changes)
        let decoded = try JSONDecoder().decode([String: ChangeLogPayload.EntityChanges].self, from: Data(payload.utf8))
        #expect(decoded == changes)
    }

    @Test func anEmptySaveWritesAnEmptyObject() {
        #expect(ChangeLogPayload.text([:]) == "{}")
    }
}
