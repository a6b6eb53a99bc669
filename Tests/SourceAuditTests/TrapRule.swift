import Foundation

/// A way the process can trap on a value it was handed: each rule finds one in code, by pattern.
///
/// Rules are listed in ``TrapRule/all``. A line a rule flags that is safe by construction (a key the code
/// itself just put in a dictionary) says why and carries `// swiftlint:disable:this RULE`.
struct TrapRule: Sendable {
    /// The rule's identifier, SwiftLint's where it has one.
    let identifier: String
    /// What it finds, for the failure message.
    let summary: String
    /// Matches in one line of code (comments and strings blanked).
    let pattern: String
    /// The folders the rule applies to; every source when empty.
    var folders: [String] = []

    func applies(to path: String) -> Bool {
        folders.isEmpty || folders.contains { path.hasPrefix($0 + "/") }
    }

    static let forceTry = TrapRule(
        identifier: "force_try", summary: "`try!` traps on any error", pattern: #"\btry!"#)
    static let forceCast = TrapRule(
        identifier: "force_cast", summary: "`as!` traps on a value of another type", pattern: #"\bas!"#)
    static let forceUnwrapping = TrapRule(
        identifier: "force_unwrapping", summary: "a force unwrap traps on nil",
        pattern: #"(?<![A-Za-z0-9_$])(?!try!|as!)[A-Za-z0-9_$]+!(?!=)|[)\]>]!(?!=)"#)
    static let trappingConversion = TrapRule(
        identifier: "trapping_conversion",
        summary: "`Int(_: Double)` traps on a non-finite or out-of-range value; use `Int(exactly:)` or a clamped conversion",
        pattern: #"\b(Int|Int32|Int64|UInt|UInt32|UInt64)\((?!exactly:|clamping:|truncatingIfNeeded:)[^()]*(\([^()]*\)[^()]*)*\.(rounded|squareRoot)\("#)

    /// The code that reads files sees bytes a person (or a broken export) chose: there, any integer conversion
    /// must be exact, failable, or say why it cannot trap.
    static let integerConversion = TrapRule(
        identifier: "integer_conversion",
        summary: "an integer conversion in the code that reads files traps on a value out of range; use `Int(exactly:)`",
        pattern: #"\bU?Int(8|16|32|64)?\((?!exactly:|ascii:|truncatingIfNeeded:|clamping:)"#,
        folders: ["Modules/PracticeLog/Importing", "Modules/PracticeLog/Sessions"])

    /// `fatalError` and the preconditions stop the process, which a server (or an app on the library) cannot
    /// survive: stored data and a caller's mistake that the typed API cannot rule out must meet a thrown error. The
    /// lines left are the allow-list: each says, after `runtime_trap:`, why only a broken invariant of the code
    /// itself (or of a conformance written against the documentation) reaches it.
    static let runtimeTrap = TrapRule(
        identifier: "runtime_trap",
        summary: "`fatalError`/`precondition` stops the process; throw an error, or say why only a broken invariant reaches it",
        pattern: #"\b(fatalError|precondition|preconditionFailure|assertionFailure)\("#)

    /// Every rule the audit runs.
    static let all: [TrapRule] = [forceTry, forceCast, forceUnwrapping, trappingConversion, integerConversion, runtimeTrap]
}
