import GRDB
import StillpointCore

/// The INSERT, UPDATE and DELETE statements of one write transaction, each prepared once per entity instead of
/// built and looked up for every row: the hot path of large saves and imports.
///
/// ```swift
/// let insert = try SQLiteWriteStatements(db).statement(.insertUnlessTaken, for: entity)
/// ```
final class SQLiteWriteStatements {
    enum Kind: Hashable {
        /// `INSERT ... ON CONFLICT DO NOTHING`: changes no row when a unique key is taken.
        case insertUnlessTaken
        /// `UPDATE` of every attribute where `_id` and `_version` match, stepping the version.
        case update
        /// `DELETE` where `_id` and `_version` match.
        case delete
        /// `DELETE` where `_id` matches.
        case deleteAnyVersion
    }

    private struct Key: Hashable {
        let kind: Kind
        let entity: String
    }

    private let db: Database
    private var statements: [Key: Statement] = [:]
    /// The statement asked for last: rows of one entity come in runs, so this answers almost every call.
    private var last: (kind: Kind, entity: String, statement: Statement)?

    init(_ db: Database) {
        self.db = db
    }

    func statement(_ kind: Kind, for entity: EntityDescription) throws -> Statement {
        let name = entity.name
        if let last, last.kind == kind, last.entity == name { return last.statement }
        let key = Key(kind: kind, entity: name)
        let statement: Statement
        if let cached = statements[key] {
            statement = cached
        } else {
            statement = try db.cachedStatement(sql: Self.sql(kind, for: entity))
            statements[key] = statement
        }
        last = (kind, name, statement)
        return statement
    }

    private static func sql(_ kind: Kind, for entity: EntityDescription) -> String {
        let table = Store.quote(entity.name)
        let attributes = entity.storedAttributes
        switch kind {
        case .insertUnlessTaken:
            guard !attributes.isEmpty else { return "INSERT INTO \(table) DEFAULT VALUES" }
            let columns = attributes.map { Store.quote($0.name) }.joined(separator: ", ")
            let placeholders = Array(repeating: "?", count: attributes.count).joined(separator: ", ")
            return "INSERT INTO \(table) (\(columns)) VALUES (\(placeholders)) ON CONFLICT DO NOTHING"
        case .update:
            let assignments = attributes.map { "\(Store.quote($0.name)) = ?" }.joined(separator: ", ")
            let separator = attributes.isEmpty ? "" : ", "
            return "UPDATE \(table) SET \(assignments)\(separator)\"_version\" = \"_version\" + 1 WHERE \"_id\" = ? AND \"_version\" = ?"
        case .delete:
            return "DELETE FROM \(table) WHERE \"_id\" = ? AND \"_version\" = ?"
        case .deleteAnyVersion:
            return "DELETE FROM \(table) WHERE \"_id\" = ?"
        }
    }
}
