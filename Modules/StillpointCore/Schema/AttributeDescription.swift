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
    /// The integers the attribute's Swift type holds, when fewer than the column's 64 bits (an `Attribute<Int32>`'s
    /// `Int32` range): a save or batch refuses a value outside it, and a stored one outside it is an error when read.
    public var integerRange: ClosedRange<Int64>?
    /// The entity whose row ids the column holds, for the column of a to-one relationship: its foreign key.
    package var references: String?
    /// Whether the store deletes the row when the row it references is deleted: the columns of a many-to-many's
    /// link table, whose rows mean nothing without both sides.
    package var isDeletedWithReference = false
    /// Whether a save refuses a null: the column of a required to-one relationship, which the store keeps nullable.
    package var isRequiredReference = false

    public init(
        name: String, type: AttributeType, isOptional: Bool = false, defaultValue: AttributeValue? = nil,
        renamedFrom: String? = nil, conversion: AttributeConversion? = nil, integerRange: ClosedRange<Int64>? = nil
    ) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.defaultValue = defaultValue
        self.renamedFrom = renamedFrom
        self.conversion = conversion
        self.integerRange = integerRange
    }

    public var attributeDescription: AttributeDescription { self }

    /// The value a newly inserted object starts with.
    package var initialValue: AttributeValue { defaultValue ?? .null }

    /// Whether `value` can be stored in the attribute: `null` only when it is optional, else a value of its type
    /// and, for an integer, in ``integerRange``.
    package func admits(_ value: AttributeValue) -> Bool {
        value.isNull ? isOptional : value.fits(type) && isInRange(value)
    }

    /// Whether `value` is not an integer outside ``integerRange``.
    package func isInRange(_ value: AttributeValue) -> Bool {
        guard let integerRange, case .integer(let integer) = value else { return true }
        return integerRange.contains(integer)
    }

    /// What the attribute is, for messages: `an optional string attribute`, `an integer attribute (-2147483648...2147483647)`.
    package var kindDescription: String {
        let article = isOptional ? "an optional" : (type == .integer ? "an" : "a")
        return "\(article) \(type.rawValue) attribute" + (integerRange.map { " (\($0.lowerBound)...\($0.upperBound))" } ?? "")
    }

    /// Whether a stored value might be one the typed accessors cannot read, so that reading a row checks it: an
    /// integer of a narrower range, a UUID (text that is not one), a required value with no default (a null).
    var needsCheckWhenRead: Bool {
        integerRange != nil || type == .uuid || !isOptional && defaultValue == nil
    }

    /// Whether a value read from the store can be read by the typed accessors: admitted, or a null the default
    /// stands in for.
    func canRead(_ value: AttributeValue) -> Bool {
        admits(value) || value.isNull && defaultValue != nil
    }
}
