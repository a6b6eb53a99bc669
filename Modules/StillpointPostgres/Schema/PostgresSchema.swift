import StillpointCore
import StillpointSQL

/// Creates a ``Schema``'s tables on PostgreSQL, and adds what a reopen with a newer schema lacks: new tables,
/// new attributes, new indexes; renames what the schema says was renamed, and loosens what it no longer declares
/// (`PostgresSchema+Migration.swift`). Running it again changes nothing.
///
/// Each entity is a table with `_id bigserial PRIMARY KEY` and `_version bigint`; values are stored as SQLite's
/// store stores them (dates as `double precision` seconds since 1970, booleans as 0 or 1, UUIDs as text), text
/// in the `C` collation so that it compares and sorts byte by byte as SQLite's does. Each text column has three
/// folded copies (`name$fold1`, `$fold2`, `$fold3`: case-, diacritic-, both-insensitive, folded in Swift when
/// rows are written) that `[c]`/`[d]` comparisons read.
///
/// ```swift
/// try PostgresSchema(schema).create(on: connection)
/// ```
package struct PostgresSchema {
    package let schema: Schema
    let dialect = SQLDialect.postgreSQL

    package init(_ schema: Schema) {
        self.schema = schema
    }

    /// The table that remembers how far the change log has been purged (a watermark, see ``PostgresChangeLog``).
    package static let purgeTable = "_stillpoint_history_purge"

    /// Creates or completes the tables in one transaction; concurrent opens wait for each other. `path` names
    /// the store in errors: a store of a newer format, or a column of another type than its attribute's.
    package func create(on connection: PostgresConnection, path: String = "") throws {
        try connection.transaction {
            // Two processes creating the same table at once would clash in PostgreSQL's catalogue.
            try connection.execute("SELECT pg_advisory_xact_lock(\(Self.schemaLock))")
            try Self.checkFormat(on: connection, path: path)
            // Before any change: a store of a newer schema version is refused as it is.
            let steps = try versionSteps(on: connection, path: path)
            try applyRenames(on: connection)
            try checkExistingTables(on: connection, path: path)
            // A store that has every table, column and index is left alone: the statements below lock what they
            // name even when it exists (ADD COLUMN IF NOT EXISTS takes the table's exclusive lock), so an open
            // would wait for every other process's reads and writes, and hold up those that come after it.
            try removeUndeclaredConstraints(on: connection)
            guard try !isComplete(on: connection) else {
                try applyConversions(on: connection, path: path)
                if let steps { try run(steps, on: connection) }
                try completeCascades(on: connection)
                try connection.execute(Self.markFormat)
                return
            }
            try connection.execute(Self.createFormatTable)
            try connection.execute(PostgresChangeLog.createTable)
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS \(Self.purgeTable) (id integer PRIMARY KEY CHECK (id = 1), through bigint NOT NULL);
                INSERT INTO \(Self.purgeTable) (id, through) VALUES (1, 0) ON CONFLICT (id) DO NOTHING
                """)
            for statement in statements(existingTables: Set(try storedColumns(on: connection).keys)) {
                try connection.execute(statement)
            }
            try applyConversions(on: connection, path: path)
            if let steps { try run(steps, on: connection) }
            try completeCascades(on: connection)
            try connection.execute(Self.markFormat)
        }
    }

    /// Deletes the rows that go with the row they refer to (`ON DELETE CASCADE`: a many-to-many's links) when that
    /// row is gone, which only a delete with the foreign keys' triggers disabled leaves behind: this completes the
    /// cascade it skipped.
    private func completeCascades(on connection: PostgresConnection) throws {
        for entity in schema.entities {
            for column in entity.storedAttributes where column.isDeletedWithReference {
                guard let destination = column.references else { continue }
                let table = dialect.quote(entity.name), name = dialect.quote(column.name)
                try connection.execute("DELETE FROM \(table) WHERE \(name) IS NOT NULL AND NOT EXISTS "
                    + "(SELECT 1 FROM \(dialect.quote(destination)) WHERE \(dialect.quote(destination)).\"_id\" = \(table).\(name))")
            }
        }
    }

    /// A fixed key for `pg_advisory_xact_lock`, the same in every process.
    private static let schemaLock: Int64 = 0x5374_696C_6C70

    /// The statements, each idempotent; columns are added one by one only to the tables in `existingTables` (a
    /// new table is made with all of them).
    package func statements(existingTables: Set<String>) -> [String] {
        var statements: [String] = []
        for entity in schema.entities {
            let table = dialect.quote(entity.name)
            let columns = entity.storedAttributes.flatMap(columnDefinitions)
            statements.append("CREATE TABLE IF NOT EXISTS \(table) ("
                + (["\"_id\" bigserial PRIMARY KEY", "\"_version\" bigint NOT NULL DEFAULT 1"] + columns).joined(separator: ", ") + ")")
            for column in columns where existingTables.contains(entity.name) {
                statements.append("ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS \(column)")
            }
            for index in entity.indexes {
                let name = index.name(in: entity.name)
                statements.append("CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(dialect.quote(name)) ON \(table) ("
                    + index.attributes.map(dialect.quote).joined(separator: ", ") + ")")
            }
        }
        // Foreign keys once every table exists, since relationships may reach each other both ways.
        for entity in schema.entities {
            for column in entity.storedAttributes {
                guard let destination = column.references else { continue }
                let name = Self.foreignKeyName(entity, column)
                statements.append("""
                    DO $$ BEGIN
                    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = \(Self.literal(dialect.quote(entity.name)))::regclass AND conname = \(Self.literal(name))) THEN
                    UPDATE \(dialect.quote(entity.name)) SET \(dialect.quote(column.name)) = NULL WHERE \(dialect.quote(column.name)) IS NOT NULL AND \(dialect.quote(column.name)) NOT IN (SELECT "_id" FROM \(dialect.quote(destination)));
                    ALTER TABLE \(dialect.quote(entity.name)) ADD CONSTRAINT \(dialect.quote(name)) FOREIGN KEY (\(dialect.quote(column.name))) REFERENCES \(dialect.quote(destination)) ("_id")\(column.isDeletedWithReference ? " ON DELETE CASCADE" : "");
                    END IF;
                    END $$
                    """)
            }
        }
        return statements
    }

    /// `fk_Session_importRun`: the name of a relationship column's foreign key, as PostgreSQL stores it.
    static func foreignKeyName(_ entity: EntityDescription, _ column: AttributeDescription) -> String {
        storedIdentifier("fk_\(entity.name)_\(column.name)")
    }

    /// The column type of an attribute.
    package static func columnType(_ type: AttributeType) -> String {
        switch type {
        case .integer, .bool: return "bigint"
        case .double, .date: return "double precision"
        case .string, .uuid: return "text COLLATE \"C\""
        case .binary: return "bytea"
        }
    }

    /// Whether an attribute of `type` has folded copies.
    package static func hasFoldedCopies(_ type: AttributeType) -> Bool {
        type == .string || type == .uuid
    }

    private func columnDefinitions(_ attribute: AttributeDescription) -> [String] {
        var definition = "\(dialect.quote(attribute.name)) \(Self.columnType(attribute.type))"
        if !attribute.isOptional { definition += " NOT NULL" }
        let defaultValue = attribute.defaultValue ?? .null
        if let text = PostgresValueText.text(defaultValue) { definition += " DEFAULT \(Self.literal(text))" }
        guard Self.hasFoldedCopies(attribute.type) else { return [definition] }
        return [definition] + SQLDialect.foldFlags.map { flags in
            var copy = "\(dialect.quote(SQLDialect.foldedColumnName(attribute.name, flags: flags))) text COLLATE \"C\""
            if let folded = PostgresValueText.text(dialect.foldedValue(defaultValue, flags: flags)) {
                copy += " DEFAULT \(Self.literal(folded))"
            }
            return copy
        }
    }

    /// A string literal; the column's type reads it. Only defaults declared in Swift reach here.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
