import Foundation
import FuzzSupport
import PracticeLog
import StillpointCore

/// Parses one input as a predicate format (the `where:` of a custom statistic, a `--where` argument), then
/// does with it what a fetch does: evaluates it in memory against a few sessions and compiles it to SQL over
/// the session table, with and without type checks. A thrown `FetchPredicateError` is an answer; a trap, a
/// sanitizer report or a hang is a bug.
///
/// One more check, since `description` promises "a format that parses back to an equivalent predicate": when
/// every value can be written as a literal, the description parses again, to the same description.

/// Filled into `%K`, in turn: every attribute of a session, and one that isn't.
private let keys = ["kind", "duration", "start", "note", "timeZone", "source", "key", "mood"]

/// Filled into `%@`, in turn from an offset the input chooses: ordinary values, lists, edge cases.
private let values: [PredicateArgument] = [
    .value(.string("yoga")),
    .value(.integer(600)),
    .value(.date(Date(timeIntervalSince1970: 1_710_000_000))),
    .value(.double(12.5)),
    .array([.string("yoga"), .string("meditation")]),
    .value(.null),
    .array([.integer(300), .integer(1_800)]),
    .value(.bool(true)),
    .value(.string("Morgen ÄÖÜ ß İ")),
    .array([]),
    .value(.integer(.max)),
    .value(.integer(.min)),
    .value(.double(.nan)),
    .value(.double(-.infinity)),
    .value(.double(-0.0)),
    .value(.uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)))),
    .value(.binary(Data([0, 0xFF, 0x25]))),
    .value(.string("")),
    .array([.null, .double(1e308), .date(Date(timeIntervalSinceReferenceDate: -1e12))]),
    .value(.string("%_\\")),
]

/// Sessions to evaluate against: a typical one, one of nulls and empties, one of extremes.
private let sessions: [[String: AttributeValue]] = [
    ["kind": .string("yoga"), "duration": .double(1_500), "start": .date(Date(timeIntervalSince1970: 1_710_000_000)),
     "note": .string("Morgens, langsam"), "timeZone": .string("Europe/Berlin"), "source": .string("csv"),
     "key": .string("csv-1")],
    ["kind": .string(""), "duration": .double(0), "start": .date(Date(timeIntervalSince1970: 0)), "note": .null,
     "timeZone": .null, "source": .string(""), "key": .string("")],
    ["kind": .string("ÄÖÜ ß İ\u{301}"), "duration": .double(.greatestFiniteMagnitude),
     "start": .date(Date.distantFuture), "note": .string("%_\\'\""), "timeZone": .string("x"),
     "source": .string("\u{0}"), "key": .string("k")],
]

private let attributeTypes: [String: AttributeType] = Dictionary(
    uniqueKeysWithValues: Session.entity.attributes.map { ($0.name, $0.type) })

private struct UnknownKey: Error {}

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzPredicate(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = Fuzzer.bytes(start, count)
    let format = String(decoding: bytes, as: UTF8.self)
    let arguments = arguments(for: format, offset: bytes.reduce(0) { $0 &+ Int($1) })
    guard let predicate = try? FetchPredicate(format: format, arguments: arguments) else { return 0 }

    for session in sessions {
        _ = predicate.evaluate { session[$0] ?? .null }
    }
    _ = try? predicate.sqlFragment { key in
        guard let type = attributeTypes[key] else { throw UnknownKey() }
        return .column(key, type: type)
    }
    _ = try? predicate.sqlFragment { key in PredicateKeyResolution(sql: "SUM(\"\(key)\")", type: nil) }
    _ = predicate.referencedKeys

    let description = predicate.description
    if arguments.allSatisfy(\.isLiteral) {
        do {
            let again = try FetchPredicate(format: description, arguments: [])
            if again.description != description {
                fatalError("'\(format)' is described as '\(description)', which reads back as '\(again.description)'")
            }
        } catch {
            fatalError("'\(format)' is described as '\(description)', which does not parse: \(error)")
        }
    }
    return 0
}

/// One argument for each `%@` and `%K` in the format, in order (a placeholder inside a quoted string counts
/// too; the parser then says there are too many arguments, which is an answer like any other).
private func arguments(for format: String, offset: Int) -> [PredicateArgument] {
    var arguments: [PredicateArgument] = []
    var previous: Character?
    for character in format {
        if previous == "%", character == "@" {
            arguments.append(values[(offset &+ arguments.count) % values.count])
        } else if previous == "%", character == "K" {
            arguments.append(.key(keys[(offset &+ arguments.count) % keys.count]))
        }
        previous = character
    }
    return arguments
}

extension PredicateArgument {
    /// Whether a description can spell it: keys are identifiers here, but a NaN or an infinity has no literal.
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
