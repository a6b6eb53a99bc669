/// The fields of one exported row, in column order: a store's cursor row (SQLite's ``ExportCursorRow``,
/// PostgreSQL's) or values in memory (``ExportValueRow``). The encoders are generic over it, so each store's rows
/// are encoded by code specialized for them, and one encoder serves every store.
package protocol ExportRow {
    var count: Int { get }
    /// The value of column `index`; `.text` fields may only be used until `body` returns.
    func withField<T>(at index: Int, _ body: (ExportField) -> T) -> T
    /// The value of column `index`, made as a fetch would make it: for formats without a byte encoder.
    func value(at index: Int) -> AttributeValue
}
