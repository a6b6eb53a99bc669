import Foundation

/// How the values of an attribute whose type changed are converted, when a store that holds them in a column of
/// the previous type is opened (see <doc:Migrations>).
///
/// The conversion runs once, in the open's transaction, for every row: the column then has the new type, and
/// later opens have nothing to convert. Nulls are passed to `convert` too: the built-in conversions keep them.
/// A conversion that throws for a row stops the open with a ``StoreError/incompatibleSchema(path:entity:reason:)``
/// that names the row, and leaves the store as it was.
///
/// ```swift
/// static let minutes = Attribute<Int>("minutes", conversion: .roundingDouble)
/// static let level = Attribute<Int>("level", conversion: AttributeConversion(from: .string, name: "level") { value in
///     guard case .string(let text) = value else { return value }
///     return .integer(text == "high" ? 2 : 1)
/// })
/// ```
///
/// Types that share a column type (integer and bool, double and date, string and UUID) need no conversion.
public struct AttributeConversion: Sendable, Hashable {
    /// The type the attribute had before.
    public let sourceType: AttributeType
    /// Tells conversions apart, for the schema's equality.
    public let name: String
    private let body: @Sendable (AttributeValue) throws -> AttributeValue

    public init(from sourceType: AttributeType, name: String, _ convert: @escaping @Sendable (AttributeValue) throws -> AttributeValue) {
        self.sourceType = sourceType
        self.name = name
        self.body = convert
    }

    /// Converts one stored value, read as ``sourceType``.
    public func convert(_ value: AttributeValue) throws -> AttributeValue {
        try body(value)
    }

    /// An integer becomes the same number as a double.
    public static let integerToDouble = AttributeConversion(from: .integer, name: "integerToDouble") { value in
        guard case .integer(let number) = value else { return value }
        return .double(Double(number))
    }

    /// A double becomes the nearest integer (halves away from zero); one out of range or not a number is an error.
    public static let roundingDouble = AttributeConversion(from: .double, name: "roundingDouble") { value in
        guard case .double(let number) = value else { return value }
        guard let integer = Int64(exactly: number.rounded()) else {
            throw AttributeConversion.Failure("\(number) is not an integer in range")
        }
        return .integer(integer)
    }

    /// Text becomes the integer it spells (spaces around it allowed); other text is an error.
    public static let parsingInteger = AttributeConversion(from: .string, name: "parsingInteger") { value in
        guard case .string(let text) = value else { return value }
        guard let integer = Int64(text.trimmingCharacters(in: .whitespaces)) else {
            throw AttributeConversion.Failure("'\(text)' is not an integer")
        }
        return .integer(integer)
    }

    /// Why a value could not be converted; its message ends up in the store's error, after the row it names.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.sourceType == rhs.sourceType && lhs.name == rhs.name
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(sourceType)
        hasher.combine(name)
    }
}

extension AttributeConversion {
    /// The message of a failed conversion of `attribute` in the row `id`, the same for every store.
    package static func failureReason(attribute: String, id: Int64, error: any Error) -> String {
        let detail = (error as? Failure)?.description ?? String(describing: error)
        return "the value of '\(attribute)' in the row with _id \(id) cannot be converted (\(detail)); "
            + "correct that row with the previous schema, or declare a conversion that accepts it"
    }
}
