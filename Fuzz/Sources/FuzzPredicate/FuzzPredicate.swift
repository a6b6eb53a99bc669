import Foundation
import FuzzSupport
import StillpointCore
@_spi(Fuzzing) import StillpointSQL

/// Parses one input as a predicate format (the `where:` of a custom statistic), then does with it what a fetch
/// does: evaluates it in memory, fetches with it from a SQLite store (which compiles it to SQL), and compiles
/// PostgreSQL's statement for it (no server: compile only). A thrown
/// `FetchPredicateError` or `SchemaError` is an answer; a trap, a sanitizer report or a hang is a bug, and so
/// is a broken promise:
///
/// - the fetch runs in the store and returns exactly the rows the in-memory evaluator selects;
/// - PostgreSQL's statement compiles, or is refused with a `FetchPredicateError` (a construct PostgreSQL cannot
///   mean alike), never for a key SQLite's found, and binds every parameter it names;
/// - `description` parses back, to the same description.
///
/// Both are checked when every value has a literal (a NaN or an infinity argument has none; formats only hold
/// literals).
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzPredicate(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzzer.bytes(start, count)
    let format = String(decoding: bytes, as: UTF8.self)
    let arguments = PredicateFixture.arguments(for: format, offset: bytes.reduce(0) { $0 &+ Int($1) })
    guard let predicate = try? FetchPredicate(format: format, arguments: arguments) else { return 0 }

    let memoryIDs = PredicateFixture.memoryIDs(predicate)
    let storeIDs: [Int64]?
    var storeError: (any Error)?
    do {
        storeIDs = try PredicateFixture.storeIDs(predicate)
    } catch is FetchPredicateError {
        storeIDs = nil  // a comparison the types rule out: an answer
    } catch is SchemaError {
        storeIDs = nil  // a key the entity does not have: an answer
    } catch {
        storeIDs = nil
        storeError = error
    }
    _ = predicate.referencedKeys
    checkPostgreSQL(predicate, format: format, sqliteCompiled: storeIDs != nil)
    guard arguments.allSatisfy(\.isLiteral) else { return 0 }

    if let storeError {
        fatalError("\(format.debugDescription) compiles to SQL that the store refuses: \(storeError)")
    }
    if let storeIDs, storeIDs != memoryIDs {
        fatalError("\(format.debugDescription) fetches rows \(storeIDs) from the store but selects \(memoryIDs) in memory "
                   + "(arguments \(arguments))")
    }

    let description = predicate.description
    do {
        let again = try FetchPredicate(format: description, arguments: [])
        if again.description != description {
            fatalError("\(format.debugDescription) is described as \(description.debugDescription), which reads "
                       + "back as \(again.description.debugDescription)")
        }
    } catch {
        fatalError("\(format.debugDescription) is described as \(description.debugDescription), which does not parse: "
                   + error.description.debugDescription)
    }
    return 0
}

/// Compiles PostgreSQL's statement for `predicate` and checks it as the target's comment says.
private func checkPostgreSQL(_ predicate: FetchPredicate, format: String, sqliteCompiled: Bool) {
    do {
        let (sql, argumentCount) = try FetchRequest(PredicateFixture.entity, predicate: predicate).postgreSQLStatement()
        if let highest = highestPlaceholder(in: sql), highest > argumentCount {
            fatalError("\(format.debugDescription) compiles for PostgreSQL to \(sql.debugDescription), which names $\(highest) "
                       + "but binds \(argumentCount) arguments")
        }
    } catch is FetchPredicateError {
        return  // refused, saying why: an answer
    } catch let error as SchemaError {
        if sqliteCompiled {
            fatalError("\(format.debugDescription) compiles for SQLite, but PostgreSQL's compiler says: \(error)")
        }
    } catch {
        fatalError("\(format.debugDescription) fails to compile for PostgreSQL with an error that is no answer: \(error)")
    }
}

/// The highest `$n` placeholder of `sql` outside its quoted literals and identifiers, or `nil` when it has none.
private func highestPlaceholder(in sql: String) -> Int? {
    var highest: Int?
    var quote: Character?
    var characters = sql.makeIterator()
    var pending = characters.next()
    while let character = pending {
        pending = characters.next()
        if let open = quote {
            if character == open { quote = nil }
            continue
        }
        if character == "'" || character == "\"" {
            quote = character
        } else if character == "$" {
            var digits = ""
            while let digit = pending, digit.isASCII, digit.isNumber {
                digits.append(digit)
                pending = characters.next()
            }
            if let number = Int(digits) { highest = max(highest ?? number, number) }
        }
    }
    return highest
}

extension PredicateArgument {
    /// Whether a format can spell it: keys are identifiers here, but a NaN or an infinity has no literal.
    fileprivate var isLiteral: Bool {
        switch self {
        case .key: return true
        case .value(let value): return value.isLiteral
        case .array(let values): return values.allSatisfy(\.isLiteral)
        }
    }
}

extension AttributeValue {
    fileprivate var isLiteral: Bool {
        if case .double(let value) = self { return value.isFinite }
        return true
    }
}
