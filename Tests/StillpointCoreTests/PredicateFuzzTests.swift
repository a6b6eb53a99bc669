import Foundation
import PropertyBased
import StillpointTestSupport
import Testing
@testable import StillpointCore
@_spi(Fuzzing) import StillpointSQL

/// The predicate parser on formats made to break it: the fuzzing corpus mutated at random, and formats put
/// together from the language's words. Every format either parses (and then evaluates and compiles to SQL)
/// or throws a `FetchPredicateError` that points inside it; a crash or a hang fails the run. (The libFuzzer
/// target FuzzPredicate runs the same much longer.)
@Suite("Predicate fuzzing")
struct PredicateFuzzTests {
    static let seeds = InputMutator.corpus("FuzzPredicate")
    static let words = [
        "(", ")", "(", ")", " AND ", " OR ", "NOT ", "!", "&&", "||", "==", "!=", "<", ">=", " IN ", " BETWEEN ",
        " BEGINSWITH ", " CONTAINS ", " LIKE ", "[c]", "[cd]", "{", "}", ", ", "kind", "duration", "note",
        "'yoga'", "\"a\\\"b\"", "42", "-1.5e3", "nil", "TRUEPREDICATE", "CAST(", "\"NSDate\"", "%@", "%K", "#kind",
        "SUBQUERY(", "sessions", "$s", "$s.", "$t.", ").@count", ".@sum", "ANY ",
        // Issue 26: arithmetic, functions, radix literals, SELF, substitution variables, MATCHES.
        " + ", " - ", "*", " / ", " ** ", "-(", "abs(", "sqrt(", "floor(", "modulus:by:(", "length:(", "lowercase(",
        "now()", "FUNCTION(", "'abs'", "0x3E8", "0b101", "0o", "SELF.", "$KIND", " MATCHES ", "'med.*'", "'(x'",
        // MATCHES patterns as PostgreSQL translates or refuses them.
        " MATCHES[c] ", "'(?:ss|ß)+\\\\d*?'", "'[^\\\\s]{2,300}$'", "'\\\\Qa|b\\\\E(?=x)'", "'\\\\w\\\\x{1F600}'",
    ]
    static let mutator = InputMutator(tokens: words, maximumLength: 4_096)

    static func check(_ format: String) {
        do {
            let predicate = try FetchPredicate(format: format, arguments: [])
            _ = predicate.evaluate { _ in .string("yoga") }
            _ = try? predicate.sqlFragment(in: .sqlite) { .column($0, type: .string) }
            _ = try? predicate.sqlFragment(in: .postgreSQL) { .column($0, type: .string) }
            _ = predicate.description
        } catch {
            if let offset = error.offset {
                #expect((0...format.count).contains(offset), "\(error) in \(format.debugDescription)")
            }
            #expect(!error.description.isEmpty)
        }
    }

    @Test func theCorpusIsThere() {
        #expect(Self.seeds.count >= 5)
        #expect(Self.seeds.contains { $0.hasPrefix(String(repeating: "(", count: FetchPredicate.maximumNesting + 1)) },
                "the deep nesting seed")
    }

    @Test func mutatedFormats() async {
        let seeds = Self.seeds
        let input = zip(Gen.int(in: 0..<max(1, seeds.count)), Gen<UInt32>.value().array(of: 1...12))
        await propertyCheck(count: 500, input: input) { index, choices in
            Self.check(Self.mutator.mutate(seeds.isEmpty ? "" : seeds[index % seeds.count], choices: choices))
        }
    }

    @Test func generatedFormats() async {
        let formats = Gen.element(of: Self.words).array(of: 0...40).map { $0.compactMap { $0 }.joined() }
        await propertyCheck(count: 500, input: formats) { format in
            Self.check(format)
        }
    }

    /// What FuzzPredicate compiles for PostgreSQL with no server: the statement the store runs, its parameters
    /// numbered as it binds them, and a construct PostgreSQL cannot mean alike refused with the reason.
    @Test func postgreSQLStatementsCompileWithoutAServer() throws {
        let request = FetchRequest(Item.self, predicate: try FetchPredicate("title MATCHES[c] %@ AND uid / 60 > %@", "med.*", 20))
        let (sql, argumentCount) = try request.postgreSQLStatement()
        #expect(sql.hasPrefix("SELECT \"_id\", \"_version\""), "\(sql)")
        #expect(sql.contains("$1") && sql.contains("$\(argumentCount)") && !sql.contains("$\(argumentCount + 1)"), "\(sql)")
        #expect(sql.contains(" ~ ") || sql.contains("~*"), "MATCHES becomes PostgreSQL's regular expression match: \(sql)")
        let refused = FetchRequest(Item.self, predicate: try FetchPredicate("title MATCHES %@", "\\w+"))
        #expect(throws: FetchPredicateError.self) { try refused.postgreSQLStatement() }
        let unknown = FetchRequest(Item.self, predicate: try FetchPredicate("mood == 1"))
        #expect(throws: SchemaError.self) { try unknown.postgreSQLStatement() }
    }
}
