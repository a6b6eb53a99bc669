import Foundation

/// A mistake in a schema declaration, or a name that the schema does not have.
public enum SchemaError: Error, Sendable, Equatable {
    case unknownEntity(String, suggestion: String?)
    case unknownAttribute(entity: String, attribute: String, suggestion: String?)
    case invalidDeclaration(String)
}

extension SchemaError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .unknownEntity(let name, let suggestion):
            return "the schema has no entity '\(name)'" + hint(suggestion)
        case .unknownAttribute(let entity, let attribute, let suggestion):
            return "\(entity) has no attribute '\(attribute)'" + hint(suggestion)
        case .invalidDeclaration(let message):
            return message
        }
    }
}

/// ", did you mean 'x'?" when there is a near name.
func hint(_ suggestion: String?) -> String {
    suggestion.map { "; did you mean '\($0)'?" } ?? ""
}
