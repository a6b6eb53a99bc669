import StillpointReport
import Testing

/// OrderedJSON on one line, for JSON Lines.
@Suite("ordered JSON on one line")
struct OrderedJSONLineTests {
    @Test func aDocumentIsOneLineWithItsMembersInOrder() {
        let json = OrderedJSON.object([
            "id": .string("a\nb"), "values": .array([.number(1), .number(2.5), .null]), "empty": .object([]), "ok": .bool(true),
        ])
        #expect(json.line() == #"{"id":"a\nb","values":[1,2.5,null],"empty":{},"ok":true}"#)
    }
}
