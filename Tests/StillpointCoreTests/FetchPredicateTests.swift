import Foundation
import Testing
@testable import StillpointCore

/// Parsing, descriptions, errors, combinators and in-memory evaluation of `FetchPredicate`.
/// The SQL side, checked against a real database, is in FetchPredicateSQLTests.swift.
@Suite("FetchPredicate parsing and evaluation")
struct FetchPredicateTests {
    // MARK: Helpers

    private func comparison(_ key: String, _ op: PredicateOperator, _ value: AttributeValue,
                            _ options: PredicateComparisonOptions = []) -> PredicateNode {
        .comparison(PredicateComparison(lhs: .key(key), op: op, options: options, rhs: .value(value)))
    }

    private func parseError(_ format: String, _ arguments: any PredicateArgumentConvertible...) -> FetchPredicateError? {
        do {
            _ = try FetchPredicate(format: format, arguments: arguments.map(\.predicateArgument))
            return nil
        } catch {
            return error
        }
    }

    /// The character offset of the first occurrence of `part` in `format`.
    private func offset(of part: String, in format: String) -> Int {
        let range = format.range(of: part)!
        return format.distance(from: format.startIndex, to: range.lowerBound)
    }

    private func matches(_ predicate: FetchPredicate, _ values: [String: AttributeValue]) -> Bool {
        predicate.evaluate { values[$0] ?? .null }
    }

    // MARK: Syntax

    @Test("every comparison operator spelling parses to its operator", arguments: [
        ("==", PredicateOperator.equal), ("=", .equal), ("!=", .notEqual), ("<>", .notEqual),
        ("<", .less), ("<=", .lessOrEqual), ("=<", .lessOrEqual),
        (">", .greater), (">=", .greaterOrEqual), ("=>", .greaterOrEqual),
    ])
    func comparisonOperators(spelling: String, op: PredicateOperator) throws {
        let predicate = try FetchPredicate("duration \(spelling) 5")
        #expect(predicate.root == comparison("duration", op, .integer(5)))
        // Without spaces too.
        #expect(try FetchPredicate("duration\(spelling)5").root == predicate.root)
    }

    @Test func wordOperatorsAndKeywordsIgnoreCase() throws {
        let upper = try FetchPredicate("kind IN {'a'} AND NOT title BEGINSWITH 'x' OR duration BETWEEN {1, 2}")
        let lower = try FetchPredicate("kind in {'a'} and not title beginswith 'x' or duration between {1, 2}")
        #expect(upper == lower)
        #expect(try FetchPredicate("x endsWith 'a' && y Contains 'b' || z like 'c*'").root == .or([
            .and([comparison("x", .endsWith, .string("a")), comparison("y", .contains, .string("b"))]),
            comparison("z", .like, .string("c*")),
        ]))
    }

    @Test func precedenceIsNotThenAndThenOr() throws {
        let predicate = try FetchPredicate("a == 1 OR b == 2 AND NOT c == 3")
        #expect(predicate.root == .or([
            comparison("a", .equal, .integer(1)),
            .and([comparison("b", .equal, .integer(2)), .not(comparison("c", .equal, .integer(3)))]),
        ]))
        let grouped = try FetchPredicate("(a == 1 OR b == 2) AND !(c == 3)")
        #expect(grouped.root == .and([
            .or([comparison("a", .equal, .integer(1)), comparison("b", .equal, .integer(2))]),
            .not(comparison("c", .equal, .integer(3))),
        ]))
        // a || b && c with a true and b, c false: true under the right precedence, false otherwise.
        #expect(matches(try FetchPredicate("a == 1 || b == 1 && c == 1"), ["a": .integer(1)]))
        #expect(!matches(try FetchPredicate("(a == 1 || b == 1) && c == 1"), ["a": .integer(1)]))
    }

    @Test func literals() throws {
        #expect(try FetchPredicate("x == 42").root == comparison("x", .equal, .integer(42)))
        #expect(try FetchPredicate("x == -7").root == comparison("x", .equal, .integer(-7)))
        #expect(try FetchPredicate("x == 2.5").root == comparison("x", .equal, .double(2.5)))
        #expect(try FetchPredicate("x == -0.25").root == comparison("x", .equal, .double(-0.25)))
        #expect(try FetchPredicate("x==-3").root == comparison("x", .equal, .integer(-3)))
        #expect(try FetchPredicate("!!(x == 1)").root == comparison("x", .equal, .integer(1)))
        #expect(try FetchPredicate("x == 1e3").root == comparison("x", .equal, .double(1000)))
        #expect(try FetchPredicate("x == 'it\\'s'").root == comparison("x", .equal, .string("it's")))
        #expect(try FetchPredicate("x == \"say \\\"hi\\\"\"").root == comparison("x", .equal, .string("say \"hi\"")))
        #expect(try FetchPredicate("x == 'a\\\\b\\n'").root == comparison("x", .equal, .string("a\\b\n")))
        #expect(try FetchPredicate("x == \"it's\"").root == comparison("x", .equal, .string("it's")))
        for spelling in ["nil", "NIL", "null", "NULL"] {
            #expect(try FetchPredicate("x == \(spelling)").root == comparison("x", .equal, .null))
        }
        for (spelling, value) in [("TRUE", true), ("yes", true), ("False", false), ("NO", false)] {
            #expect(try FetchPredicate("x == \(spelling)").root == comparison("x", .equal, .bool(value)))
        }
        #expect(try FetchPredicate("TRUEPREDICATE") == .true)
        #expect(try FetchPredicate("falsepredicate") == .false)
        #expect(try FetchPredicate("x IN {1, 'a', nil}").root == .comparison(PredicateComparison(
            lhs: .key("x"), op: .in, options: [], rhs: .list([.integer(1), .string("a"), .null]))))
        #expect(try FetchPredicate("x IN {}").root == .comparison(PredicateComparison(lhs: .key("x"), op: .in, options: [], rhs: .list([]))))
    }

    @Test func modifiers() throws {
        #expect(try FetchPredicate("x ==[c] 'a'").root == comparison("x", .equal, .string("a"), .caseInsensitive))
        #expect(try FetchPredicate("x !=[d] 'a'").root == comparison("x", .notEqual, .string("a"), .diacriticInsensitive))
        #expect(try FetchPredicate("x BEGINSWITH[cd] 'a'").root
            == comparison("x", .beginsWith, .string("a"), [.caseInsensitive, .diacriticInsensitive]))
        #expect(try FetchPredicate("x LIKE[DC] 'a'").root
            == comparison("x", .like, .string("a"), [.caseInsensitive, .diacriticInsensitive]))
        #expect(try FetchPredicate("x IN[c] {'a'}").root == .comparison(PredicateComparison(
            lhs: .key("x"), op: .in, options: .caseInsensitive, rhs: .list([.string("a")]))))
    }

    @Test func escapedKeywordKeys() throws {
        let predicate = try FetchPredicate("#in == 1 AND #Like == 2")
        #expect(predicate.referencedKeys == ["in", "Like"])
        #expect(predicate.description == "#in == 1 AND #Like == 2")
    }

    // MARK: Arguments

    @Test func argumentsOfEveryConvertibleType() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let uuid = UUID()
        let note: String? = nil
        let predicate = try FetchPredicate(
            "a == %@ AND b == %@ AND c == %@ AND d == %@ AND e == %@ AND f == %@ AND g == %@ AND h == %@ AND i == %@ AND j == %@",
            "s", 3, Int32(4), Int64(5), 1.5, true, date, uuid, Data([1, 2]), note)
        guard case .and(let operands) = predicate.root else {
            Issue.record("expected AND, got \(predicate.root)")
            return
        }
        let values: [AttributeValue] = [.string("s"), .integer(3), .integer(4), .integer(5), .double(1.5), .bool(true),
                                        .date(date), .uuid(uuid), .binary(Data([1, 2])), .null]
        #expect(operands == zip("abcdefghij", values).map { comparison(String($0), .equal, $1) })
    }

    @Test func argumentsMatchLiterals() throws {
        #expect(try FetchPredicate("kind == %@ AND duration >= %@", "yoga", 600)
            == FetchPredicate("kind == 'yoga' AND duration >= 600"))
        #expect(try FetchPredicate("kind IN %@", ["a", "b"]) == FetchPredicate("kind IN {'a', 'b'}"))
        #expect(try FetchPredicate("d BETWEEN %@", [1, 5]) == FetchPredicate("d BETWEEN {1, 5}"))
        #expect(try FetchPredicate("d BETWEEN {%@, %@}", 1, 5) == FetchPredicate("d BETWEEN {1, 5}"))
        #expect(try FetchPredicate("%K == %@", PredicateArgument.key("kind"), "yoga") == FetchPredicate("kind == 'yoga'"))
        // NSPredicate habit: a string for %K names the key.
        #expect(try FetchPredicate("%K == 1", "kind") == FetchPredicate("kind == 1"))
        #expect(try FetchPredicate(format: "x == %@", arguments: [.value(.integer(1))]) == FetchPredicate("x == 1"))
        #expect(try FetchPredicate("x IN %@", [AttributeValue.integer(1), .null].predicateArgumentForTest)
            == FetchPredicate("x IN {1, nil}"))
    }

    @Test func referencedKeys() throws {
        let predicate = try FetchPredicate("kind == 'a' AND (duration > 5 OR NOT %K BEGINSWITH title)", PredicateArgument.key("note"))
        #expect(predicate.referencedKeys == ["kind", "duration", "note", "title"])
        #expect(FetchPredicate.true.referencedKeys.isEmpty)
    }

    // MARK: Description

    @Test("description parses back to the same predicate", arguments: [
        "kind == \"yoga\"",
        "kind ==[cd] \"yo\\\"ga\" AND duration >= 600",
        "a == 1 OR b == 2 AND NOT c == 3",
        "(a == 1 OR b == 2) AND NOT (c == 3 AND d != nil)",
        "x IN {1, 2.5, \"a\", nil, TRUE}",
        "x BETWEEN {-1, 1}",
        "title BEGINSWITH[c] \"a\" OR title ENDSWITH[d] \"b\" OR title CONTAINS \"c\\\\d\" OR title LIKE \"a\\\\*?\"",
        "#and == 1",
        "TRUEPREDICATE",
        "FALSEPREDICATE",
        "s == \"line\\nbreak\\ttab\"",
    ])
    func descriptionRoundTrips(format: String) throws {
        let predicate = try FetchPredicate(format)
        #expect(try FetchPredicate(predicate.description) == predicate)
        #expect(predicate.description == format)
    }

    /// Found by Fuzz/FuzzPredicate: an escape letter and a combining mark after it are one character, so the
    /// description's `\r` before U+0611 read back as a backslash, an `r` and the mark.
    @Test("an escape before a combining mark reads back as the escape", arguments: ["\r\u{611}", "a\n\u{301}b", "\t\u{301}\u{302}"])
    func escapeBeforeCombiningMark(text: String) throws {
        let predicate = try FetchPredicate("note == %@", text)
        let reparsed = try FetchPredicate(predicate.description)
        #expect(reparsed == predicate)
        #expect(reparsed.evaluate { _ in .string(text) })
    }

    @Test func dateUUIDAndDataArgumentsRoundTripThroughCast() throws {
        let predicate = try FetchPredicate("start > %@ AND id == %@ AND blob == %@",
                                           Date(timeIntervalSince1970: 1_700_000_000), UUID(), Data([0, 255]))
        #expect(predicate.description.contains("CAST("))
        #expect(try FetchPredicate(predicate.description) == predicate)
    }

    @Test func descriptionOfSpelledOperatorsIsCanonical() throws {
        #expect(try FetchPredicate("a = 1 && b <> 2 || !(c => 3)").description == "a == 1 AND b != 2 OR NOT c >= 3")
    }

    // MARK: Combinators

    @Test func combinators() throws {
        let a = try FetchPredicate("a == 1"), b = try FetchPredicate("b == 2"), c = try FetchPredicate("c == 3")
        #expect((a && b && c) == (try FetchPredicate("a == 1 AND b == 2 AND c == 3")))
        #expect((a || (b || c)) == (try FetchPredicate("a == 1 OR b == 2 OR c == 3")))
        #expect((a && (b || c)).description == "a == 1 AND (b == 2 OR c == 3)")
        #expect(!a == (try FetchPredicate("NOT a == 1")))
        #expect(!(!a) == a)
        #expect(FetchPredicate.not(.true) == .false)
        #expect((.true && a) == a)
        #expect((.false && a) == .false)
        #expect((.true || a) == .true)
        #expect(FetchPredicate.and([]) == .true)
        #expect(FetchPredicate.or([]) == .false)
        #expect(FetchPredicate.and([a, b]) == (a && b))
        #expect(FetchPredicate.or([a, b]) == (a || b))
        let values: [String: AttributeValue] = ["a": .integer(1), "b": .integer(0)]
        #expect(matches(a || b, values))
        #expect(!matches(a && b, values))
        #expect(matches(!b, values))
    }

    // MARK: Errors

    @Test func errorDescriptionShowsTheFormatWithACaret() {
        let error = parseError("kind == AND x")
        #expect(error?.kind == .syntax)
        #expect(error?.message == "expected a value after '=='")
        #expect(error?.offset == 8)
        #expect(error?.description == """
            expected a value after '==' at column 9:
              kind == AND x
                      ^
            """)
        #expect(error?.errorDescription == error?.description)
    }

    @Test func errorOnASecondLineNamesTheLine() {
        let error = parseError("kind == 'yoga'\nAND duration >")
        #expect(error?.description == """
            expected a value after '>' at line 2, column 15:
              AND duration >
                            ^
            """)
    }

    @Test("malformed formats are reported at the mistake", arguments: [
        // (format, what the message says, the text the caret is under — "" for the end)
        ("kind == 'yoga", "unterminated string", "'yoga"),
        ("kind == \"yoga", "unterminated string", "\"yoga"),
        ("kind ==", "expected a value after '=='", ""),
        ("kind == AND x", "expected a value after '=='", "AND"),
        ("== 5", "expected a key or value before '=='", "=="),
        ("a == 1 AND", "expected a comparison after 'AND'", ""),
        ("kind === 'x'", "unknown operator '==='", "==="),
        ("kind ~= 'x'", "unknown operator '~='", "~="),
        ("a + 'one' == 2", "'+' computes with numbers, got \"one\"", "'one'"),
        ("a == 0x", "invalid number '0x'", "0x"),
        ("a == 0b102", "invalid number '0b102'", "0b102"),
        ("a == 0x8000000000000000", "the number '0x8000000000000000' is too large; integers go up to 9223372036854775807", "0x8"),
        ("sine(a) == 1", "unknown function 'sine'; the functions are abs, sqrt, floor, ceiling, trunc, modulus:by:, length:, lowercase, uppercase, now", "sine"),
        ("abs(a, b) == 1", "abs takes 1 value, got 2", "abs"),
        ("FUNCTION(a, 'cosine') == 1", "unknown function 'cosine'; FUNCTION calls one of abs, sqrt, floor, ceiling, trunc, modulus:by:, length:, lowercase, uppercase", "'cosine'"),
        ("length(a + 1) == 1", "length: works on text, got a + 1", "a +"),
        ("SELF == 1", "SELF stands for the object itself, which can't be compared; compare one of its keys, like SELF.duration", "SELF"),
        ("a IN {1, $v}", "lists hold values; give the whole list as $v instead", "$v"),
        ("kind IS 'x'", "expected a comparison operator (==, !=, <, >, IN, BETWEEN, BEGINSWITH, CONTAINS, LIKE, …) after 'kind', found 'IS'", "IS"),
        ("kind MATCHES '(x'", "'(x' isn't a regular expression (ICU syntax, as NSRegularExpression reads it)", "'(x'"),
        ("kind MATCHES name", "MATCHES needs a pattern value on the right, not the key 'name'", "name"),
        ("(a == 1 OR b == 2", "missing ')' to close the '(' at column 1", ""),
        ("(a == 1 b == 2)", "expected AND, OR or ')' to close the '(' at column 1, found 'b'", "b =="),
        ("a == 1)", "unexpected ')' without a matching '('", ")"),
        ("a == 1 b == 2", "expected AND, OR or the end of the predicate, found 'b'", "b =="),
        ("", "expected a predicate", ""),
        ("x IN {1, 2", "missing '}' to close the '{' at column 6", ""),
        ("x IN {1 2}", "expected ',' or '}' in the list, found '2'", "2}"),
        ("x ==[z] 'a'", "unknown comparison option 'z'; use [c], [d] or [cd]", "z"),
        ("x == %d", "unknown placeholder '%d'; use %@ for values and %K for keys", "%d"),
        ("x == $v.name", "the variable '$v' is only defined inside SUBQUERY(collection, $v, predicate); pass values with %@", "$v"),
        ("x == $", "expected a variable name after '$', like $s in SUBQUERY(sessions, $s, $s.duration > 600)", "$"),
        ("SUBQUERY(entries, $e, $x.minutes > 1).@count > 0", "unknown variable '$x'; this SUBQUERY's variable is '$e'", "$x."),
        ("SUBQUERY(entries, $e, SUBQUERY($e.batch, $b, $e.name == 'x').@count > 0).@count > 0",
         "unknown variable '$e'; this SUBQUERY's variable is '$b' (an enclosing SUBQUERY's variable can't be read in a nested one)", "$e.name"),
        ("SUBQUERY(entries, $e, minutes > 1).@count > 0", "inside SUBQUERY, keys are read through its variable: write '$e.minutes'", "minutes >"),
        ("SUBQUERY(entries, $e, $e > 1).@count > 0", "compare a key of '$e', like $e.duration, not the object itself", "$e >"),
        ("SUBQUERY(entries, $e, $e.minutes > 1) > 0",
         "SUBQUERY(…) is a collection: compare how many objects match with .@count, like SUBQUERY(sessions, $s, $s.duration > 600).@count > 2", "> 0"),
        ("SUBQUERY(entries, $e, $e.minutes > 1).@sum.minutes > 0", "only @count reads a SUBQUERY; '@sum' isn't supported after it", "@sum"),
        ("SUBQUERY(entries, $e, $e.minutes > 1).count > 0", "expected @count after 'SUBQUERY(…).'", ".count"),
        ("SUBQUERY(5, $e, $e.minutes > 1).@count > 0",
         "SUBQUERY needs a to-many relationship first, like SUBQUERY(sessions, $s, $s.duration > 600).@count > 2", "5,"),
        ("SUBQUERY(entries.title, $e, $e.minutes > 1).@count > 0",
         "SUBQUERY's collection is one relationship of the object, like 'sessions', not the key path 'entries.title'", "entries.title"),
        ("SUBQUERY entries", "expected '(' after SUBQUERY, like SUBQUERY(sessions, $s, $s.duration > 600).@count > 2", "entries"),
        ("SUBQUERY(entries $e, $e.minutes > 1).@count > 0", "expected ',' after SUBQUERY's collection, found '$e'", "$e,"),
        ("SUBQUERY(entries, e, e.minutes > 1).@count > 0", "expected a variable like $s after SUBQUERY's collection, found 'e'", "e, e."),
        ("SUBQUERY(entries, $e $e.minutes > 1).@count > 0", "expected ',' after the variable '$e', found '$e'", "$e.minutes"),
        ("SUBQUERY(entries, $e, $e.minutes > 1", "missing ')' to close the SUBQUERY at column 9", ""),
        ("SUBQUERY(entries, $e, $e.minutes > 1 $e).@count > 0",
         "expected AND, OR or ')' to close the SUBQUERY at column 9, found '$e'", "$e)"),
        ("ANY SUBQUERY(entries, $e, $e.minutes > 1).@count > 0",
         "ANY needs a key path through a relationship on its left, like 'ANY sessions.duration > 600'", "SUBQUERY"),
        ("SUBQUERY(entries, $e, $e.title == 'a').@count CONTAINS 1", "CONTAINS compares text, but SUBQUERY(…).@count is a number", "SUBQUERY"),
        ("a. == 1", "expected a name after '.' in the key path 'a.'", ". =="),
        ("ANY 5 > a", "ANY needs a key path through a relationship on its left, like 'ANY sessions.duration > 600'", "5 >"),
        ("x == 12ab", "invalid number '12ab'", "12ab"),
        ("x == @", "unexpected character '@'", "@"),
        // Found by Fuzz/FuzzPredicate: the literal was read as infinity, described as 'inf', which does not parse.
        ("d IN {1e3081, \"\", 2200.5}", "the number '1e3081' is too large; numbers go up to about 1.8e308", "1e3081"),
        ("duration > -1e309", "the number '-1e309' is too large; numbers go up to about 1.8e308", "-1e309"),
        // Found by Fuzz/FuzzPredicate: SQL compared 'rg' (SQLite text ends at a NUL) and matched "Morgens".
        ("note CONTAINS[cd] 'rg\\0n'", "a string can't hold a NUL character (the store ends text at one); remove it", "\\0n"),
        ("note == 'a\u{0}b'", "a string can't hold a NUL character (the store ends text at one); remove it", "\u{0}b"),
    ])
    func syntaxErrors(format: String, message: String, caretUnder: String) {
        let error = parseError(format)
        #expect(error?.message == message)
        #expect(error?.offset == (caretUnder.isEmpty ? format.count : offset(of: caretUnder, in: format)))
        #expect(error?.format == format)
    }

    @Test func argumentErrors() {
        let tooFew = parseError("kind == %@ AND duration > %@", "yoga")
        #expect(tooFew?.kind == .argument)
        #expect(tooFew?.message == "missing argument for %@: 1 argument given")
        #expect(tooFew?.offset == 26)

        let tooMany = parseError("kind == %@", "yoga", 5)
        #expect(tooMany?.kind == .argument)
        #expect(tooMany?.message == "2 arguments given, but the format has only 1 placeholder")

        let arrayForScalar = parseError("kind == %@", ["a", "b"])
        #expect(arrayForScalar?.kind == .argument)
        #expect(arrayForScalar?.message == "'==' needs a single value on the right, got a list")
        #expect(arrayForScalar?.offset == 8)

        let scalarForList = parseError("kind IN %@", "a")
        #expect(scalarForList?.message == "IN needs a list on the right, like {1, 2} or an array argument")

        let keyForValue = parseError("kind == %@", PredicateArgument.key("title"))
        #expect(keyForValue?.message == "%@ got the key 'title'; use %K for keys")

        let valueForKey = parseError("%K == 1", 5)
        #expect(valueForKey?.message == "%K needs an attribute name, got 5")

        let threeBounds = parseError("d BETWEEN %@", [1, 2, 3])
        #expect(threeBounds?.message == "BETWEEN needs exactly two values {low, high}, got 3")
    }

    @Test func comparisonShapeErrors() {
        #expect(parseError("title CONTAINS 5")?.message == "CONTAINS compares text, got 5")
        #expect(parseError("title ==[c] 5")?.message == "'==' with [c] compares text, got 5")
        #expect(parseError("title LIKE pattern")?.message == "LIKE needs a pattern value on the right, not the key 'pattern'")
        #expect(parseError("{1} IN {1}")?.message == "a list can't be on the left of 'IN'")
        #expect(parseError("{1} IN {1}")?.kind == .invalidComparison)
    }

    @Test func unknownAttributeSuggestsTheNearestName() {
        let error = FetchPredicateError.unknownAttribute("duraton", entity: "Session", attributes: ["kind", "duration", "title"])
        #expect(error.kind == .unknownAttribute)
        #expect(error.description == "Session has no attribute 'duraton'; did you mean 'duration'?")
        let noSuggestion = FetchPredicateError.unknownAttribute("zzz", entity: "Session", attributes: ["kind", "duration"])
        #expect(noSuggestion.description == "Session has no attribute 'zzz'; its attributes are duration, kind")
    }

    @Test func nameSuggestion() {
        let names = ["kind", "duration", "title", "startDate"]
        #expect(NameSuggestion.nearestName(to: "duraton", in: names) == "duration")
        #expect(NameSuggestion.nearestName(to: "duartion", in: names) == "duration")   // transposition
        #expect(NameSuggestion.nearestName(to: "StartDate", in: names) == "startDate")   // case
        #expect(NameSuggestion.nearestName(to: "titel", in: names) == "title")
        #expect(NameSuggestion.nearestName(to: "id", in: names) == nil)
        #expect(NameSuggestion.nearestName(to: "everything", in: names) == nil)
        #expect(NameSuggestion.nearestName(to: "x", in: []) == nil)
        #expect(NameSuggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
    }

    // MARK: Evaluation

    @Test func nilSemantics() throws {
        let none: [String: AttributeValue] = [:]
        let five: [String: AttributeValue] = ["x": .integer(5)]
        #expect(matches(try FetchPredicate("x == nil"), none))
        #expect(!matches(try FetchPredicate("x == nil"), five))
        #expect(matches(try FetchPredicate("x != nil"), five))
        #expect(!matches(try FetchPredicate("x == 5"), none))
        #expect(matches(try FetchPredicate("x != 5"), none))   // SQL IS NOT
        #expect(!matches(try FetchPredicate("x < 5"), none))
        #expect(!matches(try FetchPredicate("x >= 5"), none))
        #expect(matches(try FetchPredicate("NOT x < 5"), none))
        #expect(!matches(try FetchPredicate("x < nil"), five))
        #expect(!matches(try FetchPredicate("x BETWEEN {1, nil}"), five))
        #expect(matches(try FetchPredicate("x IN {1, nil}"), none))
        #expect(!matches(try FetchPredicate("x IN {1, 2}"), none))
        #expect(!matches(try FetchPredicate("x IN {}"), five))
        #expect(matches(try FetchPredicate("NOT x IN {}"), five))
        #expect(!matches(try FetchPredicate("x CONTAINS ''"), none))
        #expect(matches(try FetchPredicate("x == y"), none))   // both nil, like SQL IS
    }

    @Test func numbersCompareAcrossTypes() throws {
        let start = Date(timeIntervalSince1970: 1000)
        let values: [String: AttributeValue] = ["n": .integer(3), "d": .double(3.0), "b": .bool(true), "t": .date(start)]
        #expect(matches(try FetchPredicate("n == 3.0"), values))
        #expect(matches(try FetchPredicate("n == d"), values))
        #expect(matches(try FetchPredicate("b == 1 AND b == TRUE AND b != NO"), values))
        #expect(matches(try FetchPredicate("t == %@", start), values))
        #expect(matches(try FetchPredicate("t > %@ AND t < %@", start.addingTimeInterval(-1), start.addingTimeInterval(0.5)), values))
        #expect(matches(try FetchPredicate("t == 1000"), values))
        #expect(matches(try FetchPredicate("n BETWEEN {3, 3}"), values))
        #expect(!matches(try FetchPredicate("n == '3'"), values))   // text is not a number
    }

    @Test func textOperators() throws {
        let values: [String: AttributeValue] = ["s": .string("Crème Brûlée 50%_off")]
        #expect(matches(try FetchPredicate("s BEGINSWITH 'Crème'"), values))
        #expect(!matches(try FetchPredicate("s BEGINSWITH 'creme'"), values))
        #expect(matches(try FetchPredicate("s BEGINSWITH[cd] 'creme'"), values))
        #expect(matches(try FetchPredicate("s ENDSWITH '%_off'"), values))
        #expect(matches(try FetchPredicate("s CONTAINS '50%'"), values))
        #expect(!matches(try FetchPredicate("s CONTAINS '5_%'"), values))   // no wildcards
        #expect(matches(try FetchPredicate("s CONTAINS[d] 'Brulee'"), values))
        #expect(!matches(try FetchPredicate("s CONTAINS[c] 'brulee'"), values))
        #expect(matches(try FetchPredicate("s ==[cd] 'CREME BRULEE 50%_OFF'"), values))
        #expect(matches(try FetchPredicate("s LIKE 'Crème*'"), values))
        #expect(matches(try FetchPredicate("s LIKE '*50?_off'"), values))
        #expect(!matches(try FetchPredicate("s LIKE 'crème*'"), values))
        #expect(matches(try FetchPredicate("s LIKE[c] 'crème*'"), values))
        #expect(!matches(try FetchPredicate("s LIKE '*50%'"), values))   // the whole string must match
        #expect(matches(try FetchPredicate("s LIKE[cd] 'creme ?rulee*'"), values))
        let star: [String: AttributeValue] = ["s": .string("a*b")]
        #expect(matches(try FetchPredicate("s LIKE 'a\\\\*b'"), star))
        #expect(!matches(try FetchPredicate("s LIKE 'a\\\\*b'"), ["s": .string("axb")]))
    }

    @Test func uuidsCompareWithTheirStrings() throws {
        let uuid = UUID()
        let values: [String: AttributeValue] = ["id": .uuid(uuid)]
        #expect(matches(try FetchPredicate("id == %@", uuid), values))
        #expect(matches(try FetchPredicate("id == %@", uuid.uuidString.lowercased()), values))
        #expect(matches(try FetchPredicate("id IN %@", [uuid.uuidString.lowercased()]), values))
        #expect(matches(try FetchPredicate("id BEGINSWITH %@", String(uuid.uuidString.prefix(8))), values))
        #expect(!matches(try FetchPredicate("id == %@", UUID()), values))
    }

    @Test func textFolding() {
        #expect(TextFolding.fold("Café", caseInsensitive: true, diacriticInsensitive: false) == "café")
        #expect(TextFolding.fold("Café", caseInsensitive: false, diacriticInsensitive: true) == "Cafe")
        #expect(TextFolding.fold("ÉCOLE Straße", caseInsensitive: true, diacriticInsensitive: true) == "ecole strasse")
        #expect(TextFolding.fold("Café", caseInsensitive: false, diacriticInsensitive: false) == "Café")
    }

    @Test func likePatternTranslatesToGlob() {
        #expect(LikePattern("a*b?c").glob == "a*b?c")
        #expect(LikePattern("[x]\\*\\?").glob == "[[]x][*][?]")
        #expect(LikePattern("100%_").glob == "100%_")
        #expect(LikePattern("a*").matches(Array("abc".unicodeScalars)))
        #expect(LikePattern("*c").matches(Array("abc".unicodeScalars)))
        #expect(LikePattern("a?c").matches(Array("abc".unicodeScalars)))
        #expect(!LikePattern("a?c").matches(Array("abbc".unicodeScalars)))
        #expect(LikePattern("*b*b*").matches(Array("abcbd".unicodeScalars)))
        #expect(LikePattern("").matches([]))
        #expect(!LikePattern("").matches(Array("a".unicodeScalars)))
    }
}

private extension Array where Element == AttributeValue {
    var predicateArgumentForTest: PredicateArgument { .array(self) }
}
