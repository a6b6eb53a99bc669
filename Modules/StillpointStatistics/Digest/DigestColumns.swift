import Foundation
import StillpointCore

/// The digest's copy of the session table: one array per column, in row-ID order, numbers for texts.
///
/// A deleted row stays as a tombstone (its duration not a number, which no filter admits) until the next
/// rebuild, so that deleting costs no shift of a million values.
package struct DigestColumns: Sendable {
    /// One row as the digest holds it.
    package struct Row: Sendable, Hashable {
        package var rowID: Int64
        package var start: Double
        package var duration: Double
        package var kind: ByteInterner.Number
        package var source: ByteInterner.Number
        /// 0 for none: the session is read in the report's zone.
        package var zone: ByteInterner.Number
    }

    /// 32-bit offsets from a base that moves (``RowIDColumn``): 4 bytes a session, where 64-bit ids were 8.
    private(set) var rowIDs = RowIDColumn()
    package private(set) var starts: [Double] = []
    package private(set) var durations: [Double] = []
    /// The texts' numbers, 16 bits each (``ByteInterner``): 6 bytes a session, where 32 bits were 12.
    private(set) var kinds: [ByteInterner.Number] = []
    private(set) var sources: [ByteInterner.Number] = []
    private(set) var zones: [ByteInterner.Number] = []
    package var kindNames = ByteInterner(column: "kind")
    package var sourceNames = ByteInterner(column: "source")
    package var zoneNames = ByteInterner(column: "timeZone")
    /// The latest start of any row ever held, tombstones included: an upper bound.
    private(set) var latestStart = -Double.infinity

    package var count: Int { rowIDs.count }

    /// The bytes the rows take in the columns (their texts' names aside): what a report service counts it holds.
    package var byteCount: Int {
        func bytes<T>(_ column: [T]) -> Int { column.count * MemoryLayout<T>.stride }
        return rowIDs.byteCount + bytes(starts) + bytes(durations) + bytes(kinds) + bytes(sources) + bytes(zones)
    }

    package subscript(index: Int) -> Row {
        Row(rowID: rowIDs[index], start: starts[index], duration: durations[index], kind: kinds[index],
            source: sources[index], zone: zones[index])
    }

    mutating func reserve(_ capacity: Int) {
        rowIDs.reserveCapacity(capacity)
        starts.reserveCapacity(capacity)
        durations.reserveCapacity(capacity)
        kinds.reserveCapacity(capacity)
        sources.reserveCapacity(capacity)
        zones.reserveCapacity(capacity)
    }

    /// Makes room for `more` rows, growing by a little rather than doubling: for a digest that is kept.
    mutating func reserveGently(_ more: Int) {
        rowIDs.reserveGently(more)
        starts.reserveGently(more)
        durations.reserveGently(more)
        kinds.reserveGently(more)
        sources.reserveGently(more)
        zones.reserveGently(more)
    }

    /// Lets go of the room the columns grew into while they were read, for a digest that is kept.
    mutating func trimCapacity() {
        rowIDs.trimCapacity()
        starts = starts.withExactCapacity()
        durations = durations.withExactCapacity()
        kinds = kinds.withExactCapacity()
        sources = sources.withExactCapacity()
        zones = zones.withExactCapacity()
    }

    /// The row of a scan whose columns `first` to `first + 4` are the digest's (``SessionDigest/attributes``), with
    /// its texts numbered from their bytes in place; `nil` when its start or duration is not a number.
    ///
    /// - Throws: ``DigestColumnsError/tooManyTexts(column:)`` for a new text past ``ByteInterner/capacity``.
    mutating func row(of scanned: borrowing ScannedRow, from first: Int, rowID: Int64) throws -> Row? {
        guard let start = scanned.double(first), let duration = scanned.double(first + 1) else { return nil }
        return Row(rowID: rowID, start: start, duration: duration,
                   kind: try scanned.withUTF8(first + 2) { try kindNames.number(of: $0) } ?? 0,
                   source: try scanned.withUTF8(first + 3) { try sourceNames.number(of: $0) } ?? 0,
                   zone: try scanned.withUTF8(first + 4) { try zoneNames.number(of: $0) } ?? 0)
    }

    /// Adds a row read by a scan in row-ID order.
    mutating func append(_ row: Row) {
        rowIDs.append(row.rowID)
        starts.append(row.start)
        durations.append(row.duration)
        kinds.append(row.kind)
        sources.append(row.source)
        zones.append(row.zone)
        latestStart = max(latestStart, row.start)
    }

    /// The position of `rowID`, or where it would go.
    func position(of rowID: Int64) -> (index: Int, found: Bool) {
        if let last = rowIDs.last, last < rowID { return (rowIDs.count, false) }
        var low = 0, high = rowIDs.count
        while low < high {
            let middle = (low + high) / 2
            if rowIDs[middle] < rowID { low = middle + 1 } else { high = middle }
        }
        return (low, low < rowIDs.count && rowIDs[low] == rowID)
    }

    /// Whether the row `rowID` is held and live (not a tombstone): a report service asks whose digest a changed
    /// session was in.
    package func holds(_ rowID: Int64) -> Bool {
        let (index, found) = position(of: rowID)
        return found && !durations[index].isNaN
    }

    /// Puts `row` in place of the row with its ID (or adds it) and returns the row it replaced, if live.
    mutating func upsert(_ row: Row) -> Row? {
        let (index, found) = position(of: row.rowID)
        latestStart = max(latestStart, row.start)
        guard found else {
            if index == rowIDs.count {
                append(row)
            } else {
                // A row ID below the last one: SQLite gave back the ID of a row deleted at the end.
                rowIDs.insert(row.rowID, at: index)
                starts.insert(row.start, at: index)
                durations.insert(row.duration, at: index)
                kinds.insert(row.kind, at: index)
                sources.insert(row.source, at: index)
                zones.insert(row.zone, at: index)
            }
            return nil
        }
        let old = self[index]
        starts[index] = row.start
        durations[index] = row.duration
        kinds[index] = row.kind
        sources[index] = row.source
        zones[index] = row.zone
        return old.duration.isNaN ? nil : old
    }

    /// Marks the row with `rowID` deleted and returns it, if it was live.
    mutating func remove(_ rowID: Int64) -> Row? {
        let (index, found) = position(of: rowID)
        guard found, !durations[index].isNaN else { return nil }
        let old = self[index]
        durations[index] = .nan
        return old
    }
}
