import Foundation
@testable import StillpointCore
import Testing
import StillpointSQL

/// The Predicate Format article's examples compile and mean what it says.
@Suite("Predicate format article")
struct PredicateFormatArticleTests {
    @Test func everyExampleOfTheArticleIsCompiledHere() throws {
        let (blocks, missing) = try ArticleExamples.blocks(of: "PredicateFormat.md", missingFrom: #filePath)
        #expect(blocks.count >= 1)
        #expect(missing.isEmpty, "examples of PredicateFormat.md not compiled in this file:\n\(missing.joined(separator: "\n"))")
    }

    @Test func theOverviewExample() throws {
        let long = try FetchPredicate("duration / 60 > 20 AND lowercase(kind) == 'yoga'")
        let template = try FetchPredicate("kind ==[c] $KIND AND start > now()")
        let yoga = try template.withSubstitutionVariables(["KIND": "yoga"])

        let row: [String: AttributeValue] = ["duration": .integer(1_500), "kind": .string("Yoga"), "start": .date(Date().addingTimeInterval(60))]
        #expect(long.evaluate { row[$0] ?? .null })
        #expect(yoga.evaluate { row[$0] ?? .null })
        #expect(!template.evaluate { row[$0] ?? .null }, "a variable without a value is nil")
        #expect(template.substitutionVariables == ["KIND"] && yoga.substitutionVariables.isEmpty)
    }

    /// The precedence and grouping the article states, in memory; the agreement tests check the stores.
    @Test(arguments: [
        ("2 ** 3 ** 2 == 512", true), ("-2 ** 2 == 4", true), ("7 / 2 == 3", true), ("7 / 2.0 == 3.5", true),
        ("1 + 2 * 3 == 7", true), ("(1 + 2) * 3 == 9", true), ("-7 / 2 == -3", true), ("modulus:by:(-7, 2) == -1", true),
        ("7 / 0 == nil", true), ("sqrt(-1) == nil", true), ("floor(7) / 2 == 3.5", true), ("length('Straße') == 6", true),
        ("0x3E8 == 1000 AND 0o17 == 15 AND 0b101 == 5 AND -0x10 == -16", true), ("FUNCTION(-3, 'abs') == 3", true),
        ("9223372036854775807 + 1 > 9.2e18", true), ("TRUE + TRUE == 2", true),
        ("1 > 0 AND -2 ** 2 == 4", true), ("NOT -2 ** 2 == -4", true), ("1 - -2 == 3 AND 3 -2 == 1", true),
    ])
    func theArticlesArithmetic(format: String, expected: Bool) throws {
        let predicate = try FetchPredicate(format: format, arguments: [])
        #expect(predicate.evaluate { _ in .null } == expected, "\(format)")
        #expect(try FetchPredicate(format: predicate.description, arguments: []) == predicate, "\(predicate)")
    }

    @Test(arguments: [
        ("average:(duration) > 1", "unknown function 'average:'"),
        ("SELF > 1", "SELF stands for the object itself"),
        ("now() + 1 > start", "'+' computes with numbers, but now(…) isn't one"),
        ("kind + 1 > 2", nil),
    ])
    func theArticlesRefusals(format: String, parseMessage: String?) throws {
        guard let parseMessage else {
            // Refused when the types are known, by the compiler: kind is text.
            let predicate = try FetchPredicate(format: format, arguments: [])
            #expect(throws: FetchPredicateError.self) {
                try predicate.sqlFragment(in: .sqlite) { .column($0, type: .string) }
            }
            return
        }
        #expect { try FetchPredicate(format: format, arguments: []) } throws: { error in
            "\(error)".contains(parseMessage)
        }
    }

    @Test func modulusOfDoublesAndFoldedComputedTextAreRefusedWithTheirReason() throws {
        let modulus = try FetchPredicate("modulus:by:(score, 2) == 1")
        #expect { try modulus.sqlFragment(in: .sqlite) { .column($0, type: .double) } } throws: { error in
            "\(error)".contains("modulus:by: takes integers")
        }
        let folded = try FetchPredicate("lowercase(kind) ==[c] 'yoga'")
        #expect(throws: Never.self) { try folded.sqlFragment(in: .sqlite) { .column($0, type: .string) } }
        #expect { try folded.sqlFragment(in: .postgreSQL) { .column($0, type: .string) } } throws: { error in
            "\(error)".contains("can't fold the computed")
        }
    }
}
