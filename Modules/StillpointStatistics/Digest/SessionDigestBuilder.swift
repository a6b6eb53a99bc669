import StillpointCore

/// Makes a ``SessionDigest`` from sessions read elsewhere: the batch job that reports on every practitioner reads
/// the sessions of all of them in one ordered scan, and builds one practitioner's digest at a time from it.
///
/// ```swift
/// var builder = SessionDigestBuilder()
/// try builder.append(start: start, duration: 1_200, kind: "yoga", source: nil, timeZone: "Europe/Berlin")
/// let digest = builder.build(token: try context.historyToken())
/// ```
public struct SessionDigestBuilder: Sendable {
    private var columns = DigestColumns()
    private var lastRowID: Int64 = 0

    public init() {}

    /// The sessions appended so far.
    public var count: Int { columns.count }

    /// Adds one session; a start or duration that is not a finite number is left out, as a digest read from the
    /// store leaves out a row without one.
    ///
    /// - Throws: when the sessions appended hold more than 65,535 different kinds, sources or zones (an error that
    ///   says which), the most a digest numbers.
    public mutating func append(start: Double, duration: Double, kind: String?, source: String?, timeZone: String?) throws {
        guard start.isFinite, duration.isFinite else { return }
        // The digest keeps rows in row-id order; these rows need none of their own, since the digest is not caught up.
        lastRowID += 1
        let row = DigestColumns.Row(rowID: lastRowID, start: start, duration: duration, kind: try columns.kindNames.number(of: kind),
                                    source: try columns.sourceNames.number(of: source), zone: try columns.zoneNames.number(of: timeZone))
        columns.append(row)
    }

    /// Adds the session of a scan whose columns `first` to `first + 4` are the digest's (start, duration, kind, source
    /// and time zone), its texts read in place: the batch job's scan, which makes no string per session. A start or
    /// duration that is not a finite number is left out, as ``append(start:duration:kind:source:timeZone:)`` leaves it.
    ///
    /// ```swift
    /// try context.scanRows(request, attributes: ["practitioner", "start", "duration", "kind", "source", "timeZone"]) { row in
    ///     try builder.append(row, columnsFrom: 1)
    /// }
    /// ```
    ///
    /// - Throws: as ``append(start:duration:kind:source:timeZone:)`` does.
    public mutating func append(_ scanned: borrowing ScannedRow, columnsFrom first: Int) throws {
        guard scanned.double(first)?.isFinite == true, scanned.double(first + 1)?.isFinite == true,
              let row = try columns.row(of: scanned, from: first, rowID: lastRowID + 1) else { return }
        lastRowID += 1
        columns.append(row)
    }

    /// The digest of the sessions appended, current with `token` (the snapshot they were read in); the builder is
    /// empty again afterwards.
    public mutating func build(token: HistoryToken) -> SessionDigest {
        defer { self = SessionDigestBuilder() }
        return SessionDigest(columns: columns, token: token)
    }
}
