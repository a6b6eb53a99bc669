import Testing
@testable import StillpointReport

@Suite("Ordered JSON")
struct OrderedJSONTests {
    @Test func keepsMemberOrderAndIndentsByTwo() {
        let json = OrderedJSON.object(["b": .number(1), "a": .array([.bool(true), .null]), "c": .object([])])
        #expect(json.formatted() == "{\n  \"b\": 1,\n  \"a\": [\n    true,\n    null\n  ],\n  \"c\": {}\n}")
    }

    @Test func escapesStrings() {
        #expect(OrderedJSON.string("a\"b\\c\nd\u{01}é").formatted() == #""a\"b\\c\nd\u0001é""#)
    }

    @Test func writesWholeNumbersWithoutFractionAndNonFiniteAsNull() {
        #expect(OrderedJSON.number(5_400).formatted() == "5400")
        #expect(OrderedJSON.number(-0.25).formatted() == "-0.25")
        #expect(OrderedJSON.number(.nan).formatted() == "null")
        #expect(OrderedJSON.number(.infinity).formatted() == "null")
    }
}
