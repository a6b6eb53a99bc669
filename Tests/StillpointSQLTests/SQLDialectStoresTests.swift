import StillpointCore
import StillpointSQL
import Testing

/// The built-in stores' spellings, which their modules supply to the core's query builders and predicate compiler.
@Suite struct SQLDialectStoresTests {
    @Test func eachStoreSpellsWhatDiffersItsOwnWay() throws {
        #expect(SQLDialect.builtInStores == [.sqlite, .postgreSQL])
        #expect(SQLDialect.sqlite.parameter(2, for: .integer(5)) == "?")
        #expect(SQLDialect.postgreSQL.parameter(2, for: .integer(5)) == "($2::bigint)")
        #expect(SQLDialect.sqlite.folded("\"kind\"", flags: 1) == "stillpoint_fold(\"kind\", 1)")
        #expect(SQLDialect.postgreSQL.folded("\"kind\"", flags: 1) == "\"kind$fold1\"")
        #expect(SQLDialect.sqlite.windowClause(limit: nil, offset: 5) == " LIMIT -1 OFFSET 5")
        #expect(SQLDialect.postgreSQL.windowClause(limit: nil, offset: 5) == " LIMIT ALL OFFSET 5")
    }

    /// A predicate compiles in each store's spelling; only PostgreSQL's translates MATCHES, and refuses what it
    /// can't mean as ICU does.
    @Test func matchesIsTheStoresOwn() throws {
        let predicate = try FetchPredicate("kind MATCHES 'yo.*'")
        let resolve = { (key: String) in PredicateKeyResolution.column(key, type: .string) }
        #expect(try predicate.sqlFragment(in: .sqlite, resolvingKeysWith: resolve).sql.contains("stillpoint_matches"))
        #expect(try predicate.sqlFragment(in: .postgreSQL, resolvingKeysWith: resolve).sql.contains(" ~ "))
        #expect { try FetchPredicate("kind MATCHES '\\\\w+'").sqlFragment(in: .postgreSQL, resolvingKeysWith: resolve) } throws: { error in
            (error as? FetchPredicateError)?.message.contains("can't run on PostgreSQL") == true
        }
    }
}
