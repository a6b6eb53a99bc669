/// The stored shape of one attribute: its name, type, optionality and default, and the name it had before,
/// if it was renamed, and how values of its previous type are converted (see <doc:Migrations>).
public struct AttributeDescription: AttributeDeclaration, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    public var defaultValue: AttributeValue?
    /// The attribute's previous name: a store whose column still has that name renames it when opened.
    public var renamedFrom: String?
    /// How values stored with another type are converted to ``type``, when the attribute's type changed.
    public var conversion: AttributeConversion?
    /// The entity whose row ids the column holds, for the column of a to-one relationship: its foreign key.
    package var references: String?
    /// Whether the store deletes the row when the row it references is deleted: the columns of a many-to-many's
    /// link table, whose rows mean nothing without both sides.
    package var isDeletedWithReference = false

    public init(
        name: String, type: AttributeType, isOptional: Bool = false, defaultValue: AttributeValue? = nil,
        renamedFrom: String? = nil, conversion: AttributeConversion? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.renamedFrom = renamedFrom
        self.conversion = conversion
    }

    public var attributeDescription: AttributeDescription { self }

    /// The value a newly inserted object starts with.
    package var initialValue: AttributeValue { defaultValue ?? .null }
}
