import Foundation
import PropertyBased
import StillpointCore
import Testing

/// Arithmetic, functions, radix literals and SELF (issue 26): the in-memory evaluator, SQLite's SQL and
/// PostgreSQL's SQL select the same rows, and each predicate's description reads back to the same predicate.
extension PostgresAgreementTests {
    static let attributeNames = Practice.entity.attributes.map(\.name)

    /// The uids of the rows the in-memory evaluator matches.
    static func evaluatedUIDs(_ predicate: FetchPredicate) -> [Int64] {
        Practice.rows.indices.compactMap { index in
            let values = Practice.values(index)
            let matches = predicate.evaluate { key in
                attributeNames.firstIndex(of: key).map { values[$0] } ?? .null
            }
            return matches ? Int64(index + 1) : nil
        }
    }

    /// Checks that memory, SQLite and PostgreSQL agree on every predicate, and returns the rows they select.
    func expectAgreement(_ predicates: [FetchPredicate], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [[Int64]] {
        let requests = predicates.map { FetchRequest(Practice.self, predicate: $0, sortedBy: [.ascending(Practice.uid)]) }
        let sqlite = try await withSQLite { context in try requests.map { try context.fetch($0).map { $0[Practice.uid] } } }
        for (predicate, sqliteUIDs) in zip(predicates, sqlite) {
            #expect(Self.evaluatedUIDs(predicate) == sqliteUIDs, "memory and SQLite on \(predicate)", sourceLocation: sourceLocation)
            let request = FetchRequest(Practice.self, predicate: predicate, sortedBy: [.ascending(Practice.uid)])
            #expect(try postgresUIDs(request) == sqliteUIDs, "PostgreSQL and SQLite on \(predicate)", sourceLocation: sourceLocation)
            #expect(try FetchPredicate(format: predicate.description, arguments: []) == predicate, "round trip of \(predicate)", sourceLocation: sourceLocation)
        }
        return sqlite
    }

    @Test func arithmeticAndFunctionsSelectTheSameRows() async throws {
        let formats = [
            // The forms of issue 26's table, over integers (minutes), doubles (score), text (name) and dates (at).
            "minutes / 7 > 2", "minutes + minutes > 50", "-minutes < -20", "minutes ** 2 > 400", "minutes -5 > 20",
            "minutes - -5 > 20", "(minutes + 5) * 2 > 60", "minutes / 7 * 7 == minutes", "minutes / 60.0 > 0.2",
            "score * 2 >= 3", "score + minutes > 10", "score - 1 < 0", "-score > 0", "score / 4 < 0.5", "2 ** 3 ** 2 == 512",
            "minutes / 0 == nil", "score / 0 == nil", "modulus:by:(minutes, 0) == nil", "minutes + nil == nil", "done + 1 == 2",
            "abs(score) > 0.4", "abs(minutes - 30) < 10", "FUNCTION(score, 'abs') > 0.4", "FUNCTION(minutes, 'modulus:by:', 7) == 3",
            "sqrt(minutes) > 4", "sqrt(score) > 1", "sqrt(score) == nil", "floor(score) == 1", "ceiling(score) == 2",
            "trunc(score) == 0", "floor(minutes) / 2 == 2.5", "modulus:by:(minutes, 7) == 3", "modulus:by:(-minutes, 7) == -3",
            "lowercase(name) == 'café'", "uppercase(name) == 'STRASSE'", "uppercase(name) == 'RÉSUMÉ'", "lowercase(name) == lowercase(note)",
            "lowercase(name) BEGINSWITH 'ca'", "lowercase('ΣΑΣ ÉTÉ') == 'σας été' OR minutes > 50", "uppercase('straße') == 'STRASSE' OR minutes > 50", "length:(name) == 5", "length(note) > 6", "at < now()", "now() > at",
            "abs(nil) == nil", "sqrt(nil) > 1", "lowercase(nil) == nil", "modulus:by:(minutes, nil) == nil", "nil * 2 == nil",
            "minutes == 0x14", "minutes == 0o36", "minutes == 0b1010", "minutes > -0x0A", "SELF.minutes > 20", "SELF.name ==[c] 'cafe'",
        ]
        let predicates = try formats.map { try FetchPredicate(format: $0, arguments: []) }
        let selected = try await expectAgreement(predicates)
        // Not vacuous: most of them select some rows and leave others.
        #expect(selected.filter { !$0.isEmpty && $0.count < Practice.rows.count }.count > selected.count * 3 / 4)
    }

    /// Random arithmetic over the fixture's numbers, compared with random values: the three agree.
    @Test func randomArithmeticSelectsTheSameRows() async throws {
        var predicates: [FetchPredicate] = []
        await propertyCheck(count: 200, input: Gen<UInt32>.value().array(of: 8...40)) { choices in
            var generator = RandomExpression(choices: choices)
            predicates.append(try FetchPredicate(format: generator.comparison(), arguments: []))
        }
        #expect(predicates.count == 200)
        // One SQLite store for all of them: the fixture's rows are inserted once.
        let selected = try await expectAgreement(predicates)
        #expect(selected.filter { !$0.isEmpty && $0.count < Practice.rows.count }.count > predicates.count / 4)
    }
}

/// Builds a random comparison of numbers from a list of choices: keys, literals, the arithmetic operators and
/// the numeric functions. Products and quotients keep one small operand and powers a small exponent, so that no
/// value leaves the range of doubles: PostgreSQL refuses a statement whose double overflows or underflows to
/// zero, where SQLite answers infinity or 0 (the predicate article says so).
struct RandomExpression {
    let choices: [UInt32]
    var position = 0

    init(choices: [UInt32]) {
        self.choices = choices
    }

    mutating func next(_ bound: Int) -> Int {
        defer { position += 1 }
        guard !choices.isEmpty else { return 0 }
        return Int(choices[position % choices.count] % UInt32(bound))
    }

    mutating func comparison() -> String {
        let ops = ["==", "!=", "<", "<=", ">", ">="]
        return "\(expression(depth: 0)) \(ops[next(ops.count)]) \(literal())"
    }

    mutating func literal() -> String {
        ["0", "1", "2", "-3", "7", "20", "0.5", "-1.5", "30", "nil", "0x10", "0b11", "1e3"][next(13)]
    }

    mutating func expression(depth: Int) -> String {
        let leaf = ["minutes", "score", "done", "minutes", "score", "3", "-2", "0.25"]
        guard depth < 3, next(3) != 0 else { return leaf[next(leaf.count)] }
        switch next(9) {
        case 0: return "(\(expression(depth: depth + 1)) + \(expression(depth: depth + 1)))"
        case 1: return "(\(expression(depth: depth + 1)) - \(expression(depth: depth + 1)))"
        case 2: return "(\(expression(depth: depth + 1)) * \(["2", "-1", "0.5", "3"][next(4)]))"
        case 3: return "(\(expression(depth: depth + 1)) / \(["minutes", "7", "-2", "0", "0.5", "done"][next(6)]))"
        case 4: return "-\(expression(depth: depth + 1))"
        case 5: return "minutes ** \(next(4))"
        case 6: return "\(["abs", "floor", "ceiling", "trunc", "sqrt"][next(5)])(\(expression(depth: depth + 1)))"
        case 7: return "modulus:by:(minutes, \(["7", "-3", "0", "minutes"][next(4)]))"
        default: return "FUNCTION(\(expression(depth: depth + 1)), 'abs')"
        }
    }
}

extension PostgresAgreementTests {
    @Test func substitutionVariablesAreFilledInLater() async throws {
        let template = try FetchPredicate("name ==[c] $NAME AND minutes >= $LEAST OR minutes IN $SET OR score * $FACTOR > 10")
        #expect(template.substitutionVariables == ["NAME", "LEAST", "SET", "FACTOR"])
        let filled = try template.withSubstitutionVariables(["NAME": "cafe", "LEAST": 10, "SET": [5, 7], "FACTOR": 2])
        #expect(filled == (try FetchPredicate("name ==[c] 'cafe' AND minutes >= 10 OR minutes IN {5, 7} OR score * 2 > 10")))
        #expect(filled.substitutionVariables.isEmpty)
        let selected = try await expectAgreement([filled])
        #expect(selected == [[5, 7, 13, 14]])  // cafe (5), minutes 5 and 7 (7, 13), scores over 5 (7, 14)
        #expect(throws: FetchPredicateError.self) { try template.withSubstitutionVariables(["SET": 5]) }
        #expect(throws: FetchPredicateError.self) { try template.withSubstitutionVariables(["NAME": ["a", "b"]]) }
    }

    @Test func aVariableWithoutAValueIsAnErrorAtFetch() async throws {
        let partly = try FetchPredicate("name ==[c] $NAME AND minutes >= $LEAST").withSubstitutionVariables(["NAME": "cafe"])
        #expect(partly.description == "name ==[c] \"cafe\" AND minutes >= $LEAST")
        let request = FetchRequest(Practice.self, predicate: partly)
        let sqliteMessage = try await withSQLite { context in
            do { _ = try context.fetch(request); return "" } catch { return "\(error)" }
        }
        #expect(sqliteMessage.contains("$LEAST has no value"), "\(sqliteMessage)")
        #expect(throws: (any Error).self) { try postgresUIDs(request) }
        do { _ = try postgresUIDs(request) } catch { #expect("\(error)".contains("$LEAST has no value"), "\(error)") }
        // In memory the variable is nil, which no ordering matches.
        #expect(Self.evaluatedUIDs(partly).isEmpty)
    }
}

extension PostgresAgreementTests {
    /// Past Int64, SQLite and memory answer in doubles; PostgreSQL refuses the statement ("bigint out of range").
    @Test func integerOverflowAnswersInDoublesOnSQLiteAndIsRefusedOnPostgreSQL() async throws {
        let smallest = "(minutes - 0x7FFFFFFFFFFFFFFF - 1)"  // Int64.min for the row whose minutes are 0
        let formats = ["abs(\(smallest)) > 9e18", "-\(smallest) > 9e18", "\(smallest) / -1 > 9e18", "minutes + 0x7FFFFFFFFFFFFFFF > 9.3e18",
                       "minutes * 0x7FFFFFFFFFFFFFFF < 0", "modulus:by:(\(smallest), -1) == 0"]
        let predicates = try formats.map { try FetchPredicate(format: $0, arguments: []) }
        let requests = predicates.map { FetchRequest(Practice.self, predicate: $0, sortedBy: [.ascending(Practice.uid)]) }
        let sqlite = try await withSQLite { context in try requests.map { try context.fetch($0).map { $0[Practice.uid] } } }
        for (predicate, uids) in zip(predicates, sqlite) {
            #expect(Self.evaluatedUIDs(predicate) == uids, "memory and SQLite on \(predicate)")
        }
        // Every row with minutes (all but the third): 2^63 - minutes, a double for minutes 0, an integer else.
        let withMinutes = Practice.rows.indices.filter { Practice.rows[$0].minutes != nil }.map { Int64($0 + 1) }
        #expect(sqlite[0] == withMinutes && sqlite[1] == withMinutes && sqlite[2] == withMinutes, "\(sqlite)")
        #expect(throws: (any Error).self) { try postgresUIDs(requests[0]) }
    }
}
