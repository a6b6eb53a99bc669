import Foundation
import StillpointCore

/// Text that PostgreSQL cannot store: it holds a NUL character (U+0000). SQLite keeps such text, but PostgreSQL's
/// `text` refuses the character and libpq's text parameters would cut the value short at it, so the write stops
/// before anything is sent, naming the attribute.
///
/// ```swift
/// try PostgresRowInsert(entity).parameters([.string("a\u{0}b")])
/// // Practice.name holds text with a NUL character (U+0000), which PostgreSQL cannot store; ...
/// ```
package struct PostgresNULTextError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    package let entity: String
    package let attribute: String

    package init(entity: String, attribute: String) {
        self.entity = entity
        self.attribute = attribute
    }

    package var description: String {
        "\(entity).\(attribute) holds text with a NUL character (U+0000), which PostgreSQL cannot store; "
            + "remove the character, or store the value as binary data"
    }

    /// The message, not the type's name and a number, where an error is shown by its localized description.
    package var errorDescription: String? { description }

    /// Throws for the first attribute among `values` (in `attributes`' order) whose text holds a NUL character.
    package static func check(_ values: some Sequence<AttributeValue>, of attributes: some Sequence<AttributeDescription>,
                              entity: String) throws(PostgresNULTextError) {
        for (attribute, value) in zip(attributes, values) {
            if case .string(let text) = value, text.utf8.contains(0) {
                throw PostgresNULTextError(entity: entity, attribute: attribute.name)
            }
        }
    }
}
