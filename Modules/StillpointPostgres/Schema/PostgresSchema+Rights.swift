import StillpointCore

extension PostgresSchema {
    /// Refuses, before anything is read or written, a role that lacks a right the store needs, saying which and
    /// what to grant: a `search_path` with no schema the role may use; `SELECT` on the store's tables (and, to
    /// write, `INSERT`, `UPDATE`, `DELETE` and its sequences' `USAGE`); `CREATE` on the schema when tables are
    /// missing and the open writes. Without it, the server's refusal arrives mid-way as an error of a statement.
    ///
    /// ```swift
    /// try PostgresSchema(schema).checkRights(on: connection, access: .readWrite, path: "postgresql://reader@db/practice")
    /// // StoreError.permissionDenied: "the role reader may not INSERT, UPDATE, DELETE the store's tables ..."
    /// ```
    func checkRights(on connection: PostgresConnection, access: StoreAccess, path: String) throws {
        let setting = try connection.execute(
            "SELECT current_schema(), current_user, current_setting('search_path'), has_schema_privilege(current_schema(), 'CREATE')")
        let role = setting.text(row: 0, column: 1) ?? "?"
        guard let schemaName = setting.text(row: 0, column: 0) else {
            let searchPath = setting.text(row: 0, column: 2) ?? ""
            let grant = "GRANT USAGE, CREATE ON SCHEMA name TO \(role)"
            throw StoreError.permissionDenied(path: path, detail: "the search_path (\(searchPath)) names no schema the role \(role) "
                + "may use; create the schema, have its owner grant the role USAGE and CREATE on it (\(grant)), or name another "
                + "in the URI (?options=-csearch_path%3Dname)")
        }
        let schemaSQL = dialect.quote(schemaName), roleSQL = dialect.quote(role)
        let writes = access == .readWrite
        let wanted = writes ? ["SELECT", "INSERT", "UPDATE", "DELETE"] : ["SELECT"]
        let result = try connection.execute("""
            SELECT c.relname, \(wanted.map { "has_table_privilege(c.oid, '\($0)')" }.joined(separator: ", ")),
                   COALESCE((SELECT bool_and(has_sequence_privilege(s.oid, 'USAGE')) FROM pg_depend d
                             JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
                             WHERE d.refobjid = c.oid AND d.classid = 'pg_class'::regclass), true)
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
            """)
        let storeTables = Set([PostgresChangeLog.table, Self.purgeTable, Self.formatTable, Schema.versionTable] + schema.entities.map(\.name))
        var found: Set<String> = [], lacking: Set<String> = [], sequencesLacking = false
        for row in 0..<result.rowCount {
            guard let table = result.text(row: row, column: 0), storeTables.contains(table) else { continue }
            found.insert(table)
            for (index, privilege) in wanted.enumerated() where result.text(row: row, column: index + 1) != "t" {
                lacking.insert(privilege)
            }
            if writes, result.text(row: row, column: wanted.count + 1) != "t" { sequencesLacking = true }
        }
        if !lacking.isEmpty {
            let missing = wanted.filter(lacking.contains).joined(separator: ", ")
            var grant = "GRANT \(wanted.joined(separator: ", ")) ON ALL TABLES IN SCHEMA \(schemaSQL) TO \(roleSQL)"
            if writes { grant += "; GRANT USAGE ON ALL SEQUENCES IN SCHEMA \(schemaSQL) TO \(roleSQL)" }
            throw StoreError.permissionDenied(path: path, detail: "the role \(role) may not \(missing) the store's tables in the schema "
                + "\(schemaName); have their owner grant it (\(grant)), or use a role that has it")
        }
        if sequencesLacking {
            let grant = "GRANT USAGE ON ALL SEQUENCES IN SCHEMA \(schemaSQL) TO \(roleSQL)"
            throw StoreError.permissionDenied(path: path, detail: "the role \(role) may not use the sequences that number the store's "
                + "rows in the schema \(schemaName); have their owner grant it (\(grant)), or use a role that has it")
        }
        // Making the store, or adding the tables a newer schema has, takes CREATE on the schema.
        let required = [PostgresChangeLog.table, Self.purgeTable, Self.formatTable] + schema.entities.map(\.name)
        if writes, !required.allSatisfy(found.contains), setting.text(row: 0, column: 3) != "t" {
            let grant = "GRANT CREATE ON SCHEMA \(schemaSQL) TO \(roleSQL)"
            throw StoreError.permissionDenied(path: path, detail: "the role \(role) may not create the store's tables in the schema "
                + "\(schemaName); have its owner grant it (\(grant)), make the store once with a role that may, or name a schema "
                + "the role may create in (?options=-csearch_path%3Dname)")
        }
    }
}
