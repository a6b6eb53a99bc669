import GRDB

/// The SQL functions every connection of a store gets, so that predicates compile to SQL.
enum SQLFunctions {
    static func register(in db: Database) {
        TextFolding.register(in: db)
    }
}
