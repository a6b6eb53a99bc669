/// What changed from one ``LiveSnapshot`` to the next, in the order a table or collection view applies batch
/// updates: deletions at positions of the earlier snapshot, insertions at positions of the later one.
///
/// Applying it to the earlier snapshot's rows gives the later one's: remove the `deleted` rows and the moves'
/// `from` rows (from the last position back), remove `deletedSections`, insert `insertedSections`, then insert
/// the `inserted` rows and the moves' `to` rows (from the first position on). Rows that neither moved nor were
/// inserted or deleted keep their order.
///
/// ```swift
/// tableView.performBatchUpdates {
///     tableView.deleteRows(at: difference.deleted.map(indexPath), with: .fade)
///     tableView.insertRows(at: difference.inserted.map(indexPath), with: .fade)
///     for move in difference.moved { tableView.moveRow(at: indexPath(move.from), to: indexPath(move.to)) }
/// }
/// tableView.reloadRows(at: difference.updated.map(indexPath), with: .none)
/// ```
public struct LiveDifference: Sendable, Hashable {
    /// Sections of the later snapshot that the earlier one did not have; their rows are in ``inserted`` too.
    public var insertedSections: [Int] = []
    /// Sections of the earlier snapshot that the later one does not have; their rows are in ``deleted`` too.
    public var deletedSections: [Int] = []
    /// Rows new to the results, at their positions in the later snapshot, in order.
    public var inserted: [LivePosition] = []
    /// Rows gone from the results, at their positions in the earlier snapshot, in order.
    public var deleted: [LivePosition] = []
    /// Rows whose saved values changed their place; the later snapshot has their new values.
    public var moved: [LiveMove] = []
    /// Rows whose saved values changed without moving them, at their positions in the later snapshot.
    public var updated: [LivePosition] = []

    public init() {}

    /// Whether nothing changed.
    public var isEmpty: Bool {
        insertedSections.isEmpty && deletedSections.isEmpty && inserted.isEmpty && deleted.isEmpty && moved.isEmpty
            && updated.isEmpty
    }
}
