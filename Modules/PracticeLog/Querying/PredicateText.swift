import StillpointCore

/// A predicate a person wrote (`sessions --where`, `export --where`, the server's `where=`), parsed and compiled for
/// an entity in the SQL of the store it will run on before anything is read, so that a mistake is one clear line:
/// a syntax error with its column, a name the entity does not have, a form the store cannot run.
///
/// ```swift
/// let predicate = try PredicateText.parse("kind == 'yoga' AND duration >= 600", for: Session.entity, storedIn: container)
/// try PredicateText.parse("kind ==", for: Session.entity, storedIn: container)
/// // PredicateTextError: "kind ==": expected a value after '==' at column 8
/// ```
public enum PredicateText {
    /// The predicate `text` for `entity`, checked as the store of `container` compiles it (PostgreSQL refuses a few
    /// forms SQLite answers, such as `MATCHES '\\w+'`).
    ///
    /// - Throws: ``PredicateTextError`` saying what is wrong and where; the store's errors.
    public static func parse(_ text: String, for entity: EntityDescription, storedIn container: PersistentContainer) throws -> FetchPredicate {
        let dialect = try container.store.reading(interruptedBy: nil) { $0.dialect }
        return try parse(text, for: entity, in: dialect)
    }

    /// ``parse(_:for:storedIn:)`` in `dialect`: by names and types first, then for what the store refuses.
    package static func parse(_ text: String, for entity: EntityDescription, in dialect: SQLDialect) throws(PredicateTextError) -> FetchPredicate {
        do {
            let predicate = try FetchPredicate(text)
            let resolve = { (key: String) in PredicateKeyResolution.column(key, type: try entity.checkedAttribute(named: key).type) }
            try predicate.check(resolvingKeysWith: resolve)
            _ = try predicate.sqlFragment(in: dialect, resolvingKeysWith: resolve)
            return predicate
        } catch let error as FetchPredicateError {
            throw PredicateTextError(text: text, reason: error.message + (error.offset.map { " at column \($0 + 1)" } ?? ""))
        } catch {
            // A name the entity does not have (SchemaError), with the names it has.
            throw PredicateTextError(text: text, reason: String(describing: error))
        }
    }
}
