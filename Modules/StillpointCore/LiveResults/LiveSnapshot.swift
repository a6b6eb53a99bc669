/// The results of a fetch request at one moment, as ``LiveResults`` deliver them: the rows in the request's
/// order, their sections, and what changed since the snapshot before.
///
/// ```swift
/// for await snapshot in results {
///     print("generation \(snapshot.generation): \(snapshot.count) sessions in \(snapshot.sections.count) kinds")
///     apply(snapshot.difference)
/// }
/// ```
public struct LiveSnapshot: Sendable, Hashable {
    /// Counts the snapshots of one ``LiveResults`` from 0 (the first fetch): a later snapshot has a larger one.
    public let generation: Int
    /// The sequence number of the latest change set taken in, or 0 for the first fetch.
    public let sequence: Int64
    /// The rows, in the request's order (its sort keys, then row id), section after section.
    public let rows: LiveRows
    /// The sections, in order; results without a section key have one section, named `""`, with every row.
    public let sections: [LiveSection]
    /// What changed since the snapshot before; the first snapshot a sequence delivers has every row inserted.
    public let difference: LiveDifference
    /// How many rows were read from the store to make this snapshot: the changed rows that match the request
    /// (for a request with a limit, only the first `limit` of them, and the window when a row left it), never the
    /// whole result for a change of a few rows.
    public let rowsRead: Int

    package init(generation: Int, sequence: Int64, rows: LiveRows, sections: [LiveSection], difference: LiveDifference,
                 rowsRead: Int) {
        self.generation = generation
        self.sequence = sequence
        self.rows = rows
        self.sections = sections
        self.difference = difference
        self.rowsRead = rowsRead
    }

    /// The number of rows.
    public var count: Int { rows.count }

    /// The IDs of the rows, in order.
    public var objectIDs: [ObjectID] { rows.map(\.objectID) }

    /// The row at `position`.
    public subscript(position: LivePosition) -> LiveRow {
        rows[sections[position.section].start + position.item]
    }

    /// The rows of one section.
    public func rows(in section: LiveSection) -> LiveRows.SubSequence {
        rows[section.range]
    }

    /// The same rows, delivered as a first snapshot: every section and row inserted.
    func asFirst() -> LiveSnapshot {
        var difference = LiveDifference()
        difference.insertedSections = Array(sections.indices)
        for (index, section) in sections.enumerated() {
            difference.inserted += (0..<section.count).map { LivePosition(section: index, item: $0) }
        }
        return LiveSnapshot(generation: generation, sequence: sequence, rows: rows, sections: sections,
                            difference: difference, rowsRead: rowsRead)
    }
}
