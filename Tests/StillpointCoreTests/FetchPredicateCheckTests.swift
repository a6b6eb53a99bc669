import Foundation
import StillpointCore
import StillpointSQL
import Testing

/// `FetchPredicate.check(against:)`: a predicate checked by names and types, as every store needs it, without
/// compiling it to any store's SQL.
@Suite struct FetchPredicateCheckTests {
    @Test func aPredicateOfTheEntitysAttributesAndRelationshipsPasses() throws {
        for format in ["uid == 3 AND title BEGINSWITH 'a'", "abs(score - 1.5) < 2 OR score == nil", "lowercase(title) == 'x'"] {
            try FetchPredicate(format).check(against: Item.entity)
        }
        try FetchPredicate("batch.name == 'b' AND minutes * 2 > 10").check(against: Entry.entity)
        try FetchPredicate("entries.@count > 2 AND ANY entries.minutes >= 30").check(against: Batch.entity)
    }

    @Test func anUnknownNameIsRefusedWithTheEntitysNames() throws {
        #expect { try FetchPredicate("titel == 'x'").check(against: Item.entity) } throws: { error in
            "\(error)".contains("'titel'") && "\(error)".contains("'title'")
        }
        #expect { try FetchPredicate("batch.nam == 'b'").check(against: Entry.entity) } throws: { error in
            (error as? FetchPredicateError)?.kind == .unknownAttribute
        }
    }

    @Test func operandsOfDifferentTypesAreRefused() throws {
        for format in ["title > 5", "uid == 'five'", "uid CONTAINS 'x'", "sqrt(title) > 1", "modulus:by:(score, 2) == 1"] {
            #expect(throws: FetchPredicateError.self, "\(format)") { try FetchPredicate(format).check(against: Item.entity) }
        }
    }

    /// A form one store refuses is no type error: the check passes it, and that store's own compiler refuses it.
    @Test func whatOnlyOneStoreRefusesIsLeftToThatStore() throws {
        for format in ["title MATCHES '\\\\w+'", "lowercase(title) ==[c] 'x'"] {
            let predicate = try FetchPredicate(format)
            try predicate.check(against: Item.entity)
            let resolve = SQLDialect.postgreSQL.attributeResolver(Item.entity)
            #expect(throws: FetchPredicateError.self, "\(format)") { try predicate.sqlFragment(in: .postgreSQL, resolvingKeysWith: resolve) }
            _ = try predicate.sqlFragment(in: .sqlite, resolvingKeysWith: SQLDialect.sqlite.attributeResolver(Item.entity))
        }
    }
}
