/// The fields of one exported row, in column order: a cursor's current row (``ExportCursorRow``) or values in
/// memory (``ExportValueRow``). Formats read rows through this, so one encoder serves both.
protocol ExportRow {
    var count: Int { get }
    /// The value of column `index`; `.text` fields may only be used until `body` returns.
    func withField<T>(at index: Int, _ body: (ExportField) -> T) -> T
}
