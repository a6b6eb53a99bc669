import Foundation
@testable import StillpointCore
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// What migration must get right on PostgreSQL alone; the behaviour both stores share is in the core's
/// `MigrationTests`, which runs on every store.
@Suite("PostgresMigration", .enabled(if: PostgresTestServer.isWanted))
struct PostgresMigrationTests {
    /// An entity whose index name is longer than PostgreSQL's 63-byte identifiers.
    private enum LongNamed: Entity {
        static let value = Attribute<Int>("a_rather_long_attribute_name_for_an_index")
        static let entity = EntityDescription(
            "An_entity_with_a_long_name", attributes: [value], indexes: [IndexDescription([value], isUnique: true)])
    }

    /// PostgreSQL cuts the name to 63 bytes: the next open must find the index under the cut name, not make it again.
    @Test func anIndexWhoseNameIsCutIsKeptAcrossOpens() throws {
        let uri = try PostgresTestServer.shared().makeDatabase("longname")
        let schema = try Schema([LongNamed.self])
        let query = "SELECT indexrelid FROM pg_index JOIN pg_class ON pg_class.oid = indrelid WHERE relname = $1 AND NOT indisprimary"
        _ = try PersistentContainer(schema: schema, postgres: uri)
        let before = try PostgresConnection(uri: uri).execute(query, [LongNamed.entity.name])
        _ = try PersistentContainer(schema: schema, postgres: uri)
        let after = try PostgresConnection(uri: uri).execute(query, [LongNamed.entity.name])
        #expect(before.rowCount == 1)
        #expect(before.text(row: 0, column: 0) != nil)
        #expect(after.rowCount == 1)
        #expect(before.text(row: 0, column: 0) == after.text(row: 0, column: 0))
    }
}
