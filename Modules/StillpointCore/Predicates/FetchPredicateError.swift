import Foundation

/// Why a predicate could not be parsed or compiled, and where in its format the problem is.
///
/// ```swift
/// do { _ = try FetchPredicate("kind == AND x") }
/// catch let error as FetchPredicateError { print(error) }
/// // expected a value after '==' at column 9:
/// //   kind == AND x
/// //           ^
/// ```
public struct FetchPredicateError: Error, Sendable, Equatable {
    /// The broad category of a ``FetchPredicateError``.
    public enum Kind: Sendable, Equatable {
        /// The format is malformed.
        case syntax
        /// The arguments don't match the placeholders of the format.
        case argument
        /// A key names no attribute of the fetched entity.
        case unknownAttribute
        /// The comparison is well-formed but can't apply to these operands (a string against an integer attribute).
        case invalidComparison
    }

    public var kind: Kind
    /// What is wrong, without the location: "expected a value after '=='".
    public var message: String
    /// The format string the error refers to, if any.
    public var format: String?
    /// The 0-based character offset of the mistake in `format`.
    public var offset: Int?

    public init(_ kind: Kind, _ message: String, format: String? = nil, offset: Int? = nil) {
        self.kind = kind
        self.message = message
        self.format = format
        self.offset = offset
    }

    /// The error a key resolver throws for a name that isn't an attribute, with a suggestion.
    ///
    /// ```swift
    /// FetchPredicateError.unknownAttribute("duraton", entity: "Session", attributes: ["duration", "kind"])
    /// // Session has no attribute 'duraton'; did you mean 'duration'?
    /// ```
    public static func unknownAttribute(_ name: String, entity: String, attributes: [String]) -> FetchPredicateError {
        var message = "\(entity) has no attribute '\(name)'"
        if let suggestion = NameSuggestion.nearestName(to: name, in: attributes) {
            message += "; did you mean '\(suggestion)'?"
        } else if !attributes.isEmpty {
            message += "; its attributes are " + attributes.sorted().joined(separator: ", ")
        }
        return FetchPredicateError(.unknownAttribute, message)
    }
}

extension FetchPredicateError: CustomStringConvertible, LocalizedError {
    public var description: String {
        guard let format, let offset else { return message }
        // Show only the line holding the mistake, so the caret lines up under it.
        let characters = Array(format)
        let clamped = min(max(offset, 0), characters.count)
        let lineStart = characters[..<clamped].lastIndex(where: \.isNewline).map { $0 + 1 } ?? 0
        let lineEnd = characters[clamped...].firstIndex(where: \.isNewline) ?? characters.count
        let line = String(characters[lineStart..<lineEnd].map { $0 == "\t" ? " " : $0 })
        let column = clamped - lineStart + 1
        let lineNumber = characters[..<lineStart].filter(\.isNewline).count + 1
        let location = characters.contains(where: \.isNewline) ? "line \(lineNumber), column \(column)" : "column \(column)"
        return "\(message) at \(location):\n  \(line)\n  \(String(repeating: " ", count: column - 1))^"
    }

    public var errorDescription: String? { description }
}
