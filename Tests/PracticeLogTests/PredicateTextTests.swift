import Foundation
import PracticeLog
import StillpointCore
import StillpointSQL
import StillpointSQLite
import Testing

/// A predicate a person wrote, checked for an entity in the SQL of the store it will run on, before any store is
/// opened: what `sessions --where`, `export --where` and the server's `where=` share.
@Suite("PredicateText")
struct PredicateTextTests {
    @Test
    func aGoodPredicateParses() throws {
        let container = try PersistentContainer(schema: Session.schema, location: .inMemory)
        let predicate = try PredicateText.parse("kind == 'yoga' AND duration >= 600", for: Session.entity, storedIn: container)
        #expect(predicate.referencedKeys == ["kind", "duration"])
    }

    @Test
    func mistakesSayWhatAndWhereInOneLine() {
        #expect(throws: PredicateTextError(text: "kind ==", reason: "expected a value after '==' at column 8")) {
            try PredicateText.parse("kind ==", for: Session.entity, in: .sqlite)
        }
        #expect(throws: PredicateTextError(text: "lenght > 3", reason: "Session has no attribute 'lenght'")) {
            try PredicateText.parse("lenght > 3", for: Session.entity, in: .sqlite)
        }
        let long = "duration > 0 AND " + String(repeating: "kind == 'x' OR ", count: 10) + "kind =="
        do {
            _ = try PredicateText.parse(long, for: Session.entity, in: .sqlite)
            Issue.record("accepted \(long)")
        } catch {
            #expect(error.description.hasPrefix("\"\(long.prefix(50))…\": "), "\(error)")
        }
    }

    /// A form PostgreSQL cannot run as ICU means it is refused for a PostgreSQL store (no server is needed to say so)
    /// and runs on SQLite.
    @Test
    func theStoresDialectDecides() throws {
        let text = "kind MATCHES '\\\\w+'"
        _ = try PredicateText.parse(text, for: Session.entity, in: .sqlite)
        #expect(throws: PredicateTextError.self) {
            try PredicateText.parse(text, for: Session.entity, in: .postgreSQL)
        }
    }
}
