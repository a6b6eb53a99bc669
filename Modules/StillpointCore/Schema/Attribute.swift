/// A typed attribute of an entity, declared once and used for typed access.
///
/// ```swift
/// enum Item: Entity {
///     static let uid = Attribute<Int32>("uid")
///     static let title = Attribute<String>("title", default: "")
///     static let entity = EntityDescription("Item", attributes: [uid, title])
/// }
///
/// item[Item.title] = "Sun salutation"
/// ```
public struct Attribute<Value: AttributeValueConvertible>: AttributeDeclaration {
    /// The attribute's name, which is also its column name.
    public let name: String
    /// The value a new object starts with, and the value existing rows get when the attribute is added.
    public let defaultValue: Value?
    /// The attribute's previous name, when it was renamed: the store renames the column and keeps its values.
    ///
    /// ```swift
    /// static let duration = Attribute<Int>("duration", renamedFrom: "length")
    /// ```
    public let renamedFrom: String?
    /// How the values are converted when the attribute's type changed (see ``AttributeConversion``).
    ///
    /// ```swift
    /// static let duration = Attribute<Double>("duration", conversion: .integerToDouble)
    /// ```
    public let conversion: AttributeConversion?

    public init(
        _ name: String, default defaultValue: Value? = nil, renamedFrom: String? = nil, conversion: AttributeConversion? = nil
    ) {
        self.name = name
        self.defaultValue = defaultValue
        self.renamedFrom = renamedFrom
        self.conversion = conversion
    }

    public var attributeDescription: AttributeDescription {
        AttributeDescription(
            name: name,
            type: Value.attributeType,
            isOptional: Value.isOptional,
            defaultValue: defaultValue.map(\.attributeValue),
            renamedFrom: renamedFrom,
            conversion: conversion,
            // A range as wide as the column's is no limit: nothing to check.
            integerRange: Value.integerRange.flatMap { $0 == Int64.min...Int64.max ? nil : $0 })
    }
}

/// Anything that declares an attribute: typed ``Attribute`` values and plain ``AttributeDescription``s.
public protocol AttributeDeclaration: Sendable {
    var attributeDescription: AttributeDescription { get }
}
