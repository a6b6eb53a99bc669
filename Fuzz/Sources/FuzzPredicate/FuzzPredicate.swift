import Foundation
import FuzzSupport
import StillpointCore

/// Parses one input as a predicate format (the `where:` of a custom statistic), then does with it what a fetch
/// does: evaluates it in memory and fetches with it from a store (which compiles it to SQL). A thrown
/// `FetchPredicateError` or `SchemaError` is an answer; a trap, a sanitizer report or a hang is a bug, and so
/// is a broken promise:
///
/// - the fetch runs in the store and returns exactly the rows the in-memory evaluator selects;
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
