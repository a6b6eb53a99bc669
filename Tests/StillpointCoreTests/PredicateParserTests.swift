import Foundation
import Testing
@testable import StillpointCore

/// How deep a predicate may nest: deep enough for any real condition, and an error, not a stack overflow,
/// past that.
@Suite("Predicate parser nesting")
struct PredicateParserTests {
    static func parenthesized(_ depth: Int, _ inner: String = "duration > 0") -> String {
        String(repeating: "(", count: depth) + inner + String(repeating: ")", count: depth)
    }

    static func error(_ format: String) -> FetchPredicateError? {
        do {
            _ = try FetchPredicate(format: format, arguments: [])
            return nil
        } catch {
            return error
        }
    }

    @Test func nestingUpToTheLimitParsesAndEvaluates() throws {
        let predicate = try FetchPredicate(format: Self.parenthesized(FetchPredicate.maximumNesting), arguments: [])
        #expect(predicate.evaluate { _ in .integer(5) })
        let negated = try FetchPredicate(format: String(repeating: "NOT ", count: FetchPredicate.maximumNesting) + "x == 1",
                                         arguments: [])
        #expect(negated.evaluate { _ in .integer(1) })   // an even number of NOTs
    }

    @Test("ten thousand parentheses are a syntax error at the first one too many", arguments: [
        FetchPredicate.maximumNesting + 1, 10_000,
    ])
    func tooManyParentheses(depth: Int) {
        let error = Self.error(Self.parenthesized(depth))
        #expect(error?.kind == .syntax)
        #expect(error?.offset == FetchPredicate.maximumNesting)
        #expect(error?.message.contains("nest more than \(FetchPredicate.maximumNesting) levels") == true)
    }

    @Test func notsAndParenthesesCountTogether() {
        let half = FetchPredicate.maximumNesting / 2
        let format = String(repeating: "!(", count: half + 1) + "x == 1" + String(repeating: ")", count: half + 1)
        let error = Self.error(format)
        #expect(error?.kind == .syntax)
        #expect(error?.offset == FetchPredicate.maximumNesting)
    }

    @Test func tenThousandNotsAreASyntaxError() {
        let error = Self.error(String(repeating: "NOT ", count: 10_000) + "x == 1")
        #expect(error?.kind == .syntax)
        #expect(error?.offset == FetchPredicate.maximumNesting * 4)
    }

    @Test func longFlatChainsAreNotNesting() throws {
        let format = Array(repeating: "(x == 1)", count: 1_000).joined(separator: " OR ")
        let predicate = try FetchPredicate(format: format, arguments: [])
        #expect(predicate.evaluate { _ in .integer(1) })
    }

    @Test func nestedSubqueriesCountAsNesting() {
        let depth = FetchPredicate.maximumNesting + 1
        var format = "$v.x == 1"
        for _ in 0..<depth { format = "SUBQUERY($v.r, $v, \(format)).@count > 0" }
        format = format.replacingOccurrences(of: "SUBQUERY($v.r, $v, SUBQUERY(", with: "SUBQUERY(r, $v, SUBQUERY(", options: .anchored)
        let error = Self.error(format)
        #expect(error?.kind == .syntax)
        #expect(error?.message.contains("nest more than \(FetchPredicate.maximumNesting) levels") == true)
    }

    /// A description reads back as the same predicate, so it must nest no deeper than the format it came from
    /// (the fuzzer found `-(-(-(…)))` doubling a chain of minus signs past the limit).
    @Test("a description nests no deeper than its format", arguments: [
        "x " + String(repeating: "-", count: FetchPredicate.maximumNesting) + "duration > 0",
        String(repeating: "- ", count: FetchPredicate.maximumNesting - 1) + "5 < x",
        String(repeating: "-", count: FetchPredicate.maximumNesting - 3) + "(a + b) > 0",
        "(x " + String(repeating: "- -", count: FetchPredicate.maximumNesting / 2 - 1) + "abs(y)) > 0",
    ])
    func descriptionsReadBack(format: String) throws {
        let predicate = try FetchPredicate(format: format, arguments: [])
        let again = try FetchPredicate(format: predicate.description, arguments: [])
        #expect(again.description == predicate.description)
        #expect(again.evaluate { _ in .integer(3) } == predicate.evaluate { _ in .integer(3) })
    }
}
