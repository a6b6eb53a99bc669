import StillpointCore

/// A predicate a person wrote (`sessions --where`, `export --where`, the server's `where=`), parsed and compiled for
/// an entity in the SQL of the store it will run on before anything is read, so that a mistake is one clear line:
/// a syntax error with its column, a name the entity does not have, a form the store cannot run.
///
/// ```swift
/// let predicate = try PredicateText.parse("kind == 'yoga' AND duration >= 600", for: Session.entity, storedAt: container.location)
/// try PredicateText.parse("kind ==", for: Session.entity, storedAt: .inMemory)
/// // PredicateTextError: "kind ==": expected a value after '==' at column 8
/// ```
public enum PredicateText {
    /// The predicate `text` for `entity`, checked as the store at `location` compiles it (PostgreSQL refuses a few
    /// forms SQLite answers, such as `MATCHES '\\w+'`).
    ///
    /// - Throws: ``PredicateTextError`` saying what is wrong and where.
    public static func parse(_ text: String, for entity: EntityDescription, storedAt location: StoreLocation) throws(PredicateTextError) -> FetchPredicate {
        let dialect: SQLDialect
        if case .postgres = location { dialect = .postgreSQL } else { dialect = .sqlite }
        return try parse(text, for: entity, in: dialect)
    }

    /// ``parse(_:for:storedAt:)`` in `dialect`.
    package static func parse(_ text: String, for entity: EntityDescription, in dialect: SQLDialect) throws(PredicateTextError) -> FetchPredicate {
        do {
            let predicate = try FetchPredicate(text)
            _ = try predicate.sqlFragment(in: dialect) { key in
                PredicateKeyResolution.column(key, type: try entity.checkedAttribute(named: key).type)
            }
            return predicate
        } catch let error as FetchPredicateError {
            throw PredicateTextError(text: text, reason: error.message + (error.offset.map { " at column \($0 + 1)" } ?? ""))
        } catch {
            // A name the entity does not have (SchemaError), with the names it has.
            throw PredicateTextError(text: text, reason: String(describing: error))
        }
    }
}
