/// What a version-checked row update of a ``SaveRowWriter`` did.
///
/// ```swift
/// if try rows.updateRow(values, of: entity, rowID: 7, version: 2) == .stale { /* read the row again */ }
/// ```
package enum RowWriteResult: Sendable, Equatable {
    case written
    /// The row no longer has the version (or no longer exists); nothing was written.
    case stale
    /// The values repeat another row's unique key; nothing was written.
    case uniqueKeyTaken
}
