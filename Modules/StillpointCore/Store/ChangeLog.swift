import Foundation
import GRDB
import GRDBSQLite

/// The store's persistent history: one row per save or batch operation, so that contexts in this and other
/// processes can catch up on what changed since a sequence number.
package enum ChangeLog {
    static let table = "_stillpoint_history"
    static let createTable = """
        CREATE TABLE IF NOT EXISTS "\(table)" (
            "sequence" INTEGER PRIMARY KEY AUTOINCREMENT, "author" TEXT NOT NULL,
            "timestamp" REAL NOT NULL, "changes" TEXT NOT NULL, "origin" TEXT NOT NULL DEFAULT '');
        CREATE TABLE IF NOT EXISTS "\(purgeTable)" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1), "through" INTEGER NOT NULL);
        INSERT OR IGNORE INTO "\(purgeTable)" ("id", "through") SELECT 1, coalesce(
            (SELECT min("sequence") - 1 FROM "\(table)"), (SELECT "seq" FROM sqlite_sequence WHERE "name" = '\(table)'), 0)
        """
    /// One row: the sequence number the history has been purged through, so that a token from before it is
    /// refused rather than answered with part of the history. A store made before it gets what its history shows.
    static let purgeTable = "_stillpoint_history_purge"

    /// The changes of one entity in one save, row ids stored as ranges since inserts are mostly contiguous.
    package struct EntityChanges: Codable, Equatable {
        package var inserted: [[Int64]] = []
        package var updated: [[Int64]] = []
        package var deleted: [[Int64]] = []
        package var attributes: [String] = []
    }

    /// Records a save's changes and returns its change set, numbered by its place in the history.
    static func record(author: String, origin: StoreOrigin, inserted: ObjectIDSet, updated: ObjectIDSet, deleted: ObjectIDSet,
                       changedAttributes: [String: Set<String>], in db: Database) throws -> ChangeSet {
        var byEntity: [String: EntityChanges] = [:]
        func add(_ ids: ObjectIDSet, _ path: WritableKeyPath<EntityChanges, [[Int64]]>) {
            for (entity, runs) in ids.runsByEntity {
                byEntity[entity, default: EntityChanges()][keyPath: path] = runs.map { [$0.lowerBound, $0.upperBound] }
            }
        }
        add(inserted, \.inserted)
        add(updated, \.updated)
        add(deleted, \.deleted)
        for (entity, names) in changedAttributes {
            byEntity[entity, default: EntityChanges()].attributes = names.sorted()
        }
        let payload = Self.payload(byEntity)
        let timestamp = Date()
        try db.run("INSERT INTO \"\(table)\" (\"author\", \"timestamp\", \"changes\", \"origin\") VALUES (?, ?, ?, ?)",
                   [.string(author), .double(timestamp.timeIntervalSince1970), .string(payload), .string(origin.process)])
        var changeSet = ChangeSet(sequence: db.lastInsertedRowID, author: author, timestamp: timestamp, inserted: inserted,
                                  updated: updated, deleted: deleted, changedAttributes: changedAttributes)
        changeSet.originContext = origin.context
        return changeSet
    }

    /// The `changes` column, written by hand in the form `JSONDecoder` reads back as `[String: EntityChanges]`:
    /// `{"Item":{"inserted":[[1,5]],"updated":[],"deleted":[[9,9]],"attributes":["title"]}}`. `JSONEncoder`
    /// costs more than the rest of a small save.
    package static func payload(_ byEntity: [String: EntityChanges]) -> String {
        func ranges(_ ranges: [[Int64]]) -> String {
            "[" + ranges.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        }
        let entities = byEntity.sorted { $0.key < $1.key }.map { entity, changes in
            JSONText.quoted(entity) + ":{\"inserted\":" + ranges(changes.inserted) + ",\"updated\":" + ranges(changes.updated)
                + ",\"deleted\":" + ranges(changes.deleted)
                + ",\"attributes\":[" + changes.attributes.map(JSONText.quoted).joined(separator: ",") + "]}"
        }
        return "{" + entities.joined(separator: ",") + "}"
    }

    /// The change sets recorded after `sequence`, oldest first; `excludingProcess` leaves out one process's own.
    /// An entry whose changes cannot be read goes to `damaged` with its sequence number, which throws or skips it.
    static func changeSets(after sequence: Int64, excludingProcess process: String? = nil, in db: Database,
                           damaged: (Int64) throws -> Void) throws -> [ChangeSet] {
        var changeSets: [ChangeSet] = []
        try db.query("SELECT \"sequence\", \"author\", \"timestamp\", \"changes\" FROM \"\(table)\" WHERE \"sequence\" > ? AND \"origin\" IS NOT ? ORDER BY \"sequence\"",
                     [.integer(sequence), process.map(AttributeValue.string) ?? .null]) { statement in
            guard case .string(let author) = AttributeValue(column: 1, of: statement, as: .string),
                  case .string(let payload) = AttributeValue(column: 3, of: statement, as: .string),
                  let byEntity = try? JSONDecoder().decode([String: EntityChanges].self, from: Data(payload.utf8)) else {
                try damaged(sqlite3_column_int64(statement, 0))
                return
            }
            var inserted = ObjectIDSet(), updated = ObjectIDSet(), deleted = ObjectIDSet()
            var attributes: [String: Set<String>] = [:]
            for (entity, changes) in byEntity {
                inserted.formUnion(ids(changes.inserted, entity))
                updated.formUnion(ids(changes.updated, entity))
                deleted.formUnion(ids(changes.deleted, entity))
                if !changes.attributes.isEmpty { attributes[entity] = Set(changes.attributes) }
            }
            changeSets.append(ChangeSet(
                sequence: sqlite3_column_int64(statement, 0), author: author,
                timestamp: Date(timeIntervalSince1970: sqlite3_column_double(statement, 2)),
                inserted: inserted, updated: updated, deleted: deleted, changedAttributes: attributes))
        }
        return changeSets
    }

    /// The sequence number of the latest recorded change, or 0; purged changes still count (`AUTOINCREMENT`
    /// never hands out a number twice, and SQLite keeps the largest in `sqlite_sequence`).
    static func lastSequence(in db: Database) throws -> Int64 {
        var last: Int64 = 0
        try db.query("SELECT \"seq\" FROM sqlite_sequence WHERE \"name\" = ?", [.string(table)]) { last = sqlite3_column_int64($0, 0) }
        return last
    }

    /// Deletes the history up to and including `sequence`, and remembers how far it went.
    static func purge(through sequence: Int64, in db: Database) throws {
        let through = min(sequence, try lastSequence(in: db))
        guard through > 0 else { return }
        try db.run("DELETE FROM \"\(table)\" WHERE \"sequence\" <= ?", [.integer(through)])
        try db.run("""
            INSERT INTO "\(purgeTable)" ("id", "through") VALUES (1, ?)
            ON CONFLICT ("id") DO UPDATE SET "through" = max("through", excluded."through")
            """, [.integer(through)])
    }

    /// Every change set recorded after `sequence`, oldest first, or an error: ``StoreError/historyPurged(path:token:purgedThrough:)``
    /// when some of them were purged, ``StoreError/corrupt(path:detail:)`` when one cannot be read. A partial
    /// history would leave the caller's objects silently stale.
    static func completeHistory(after sequence: Int64, in db: Database, path: String) throws -> [ChangeSet] {
        var purged: Int64 = 0
        try db.query("SELECT \"through\" FROM \"\(purgeTable)\"") { purged = sqlite3_column_int64($0, 0) }
        guard sequence >= purged else {
            throw StoreError.historyPurged(path: path, token: HistoryToken(sequence: sequence), purgedThrough: HistoryToken(sequence: purged))
        }
        return try changeSets(after: sequence, in: db) { damaged in
            throw StoreError.corrupt(path: path, detail: "the change log's entry \(damaged) in \(table) cannot be read")
        }
    }

    package static func ids(_ runs: [[Int64]], _ entity: String) -> ObjectIDSet {
        // A damaged row's ranges are skipped rather than trusted: none is reversed or absurdly long.
        ObjectIDSet(entityName: entity, runs: runs.compactMap { range in
            guard range.count == 2, range[0] <= range[1] else { return nil }
            let (length, overflow) = range[1].subtractingReportingOverflow(range[0])
            guard !overflow, length < 1 << 40 else { return nil }
            return range[0]...range[1]
        })
    }
}
