/// The stored shape of one attribute: its name, type, optionality and default.
public struct AttributeDescription: AttributeDeclaration, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var defaultValue: AttributeValue?

    public init(name: String, type: AttributeType, isOptional: Bool = false, defaultValue: AttributeValue? = nil) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
    }

    public var attributeDescription: AttributeDescription { self }

    /// The value a newly inserted object starts with.
    package var initialValue: AttributeValue { defaultValue ?? .null }
}
