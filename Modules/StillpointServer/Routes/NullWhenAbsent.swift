/// An optional member of an answer written as `null` when it has no value, where a synthesized `Encodable` would
/// leave its key out: every key the API document lists is in every answer.
///
/// ```swift
/// struct RunBody: Encodable {
///     @NullWhenAbsent var finishedAt: String?   // "finished_at": null while the run goes on
/// }
/// ```
@propertyWrapper
struct NullWhenAbsent<Value: Encodable & Sendable>: Encodable, Sendable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}
