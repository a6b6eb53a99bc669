import Foundation
import Testing
@testable import StillpointCore

/// An integer outside its attribute's Swift type (`Item.uid` is an `Attribute<Int32>`) is refused where it is
/// written, and one another program stored is an error that names the row when read, never a trap.
@Suite("Integer ranges and stored values")
struct IntegerRangeTests {
    static let tooLarge = AttributeValue.integer(5_000_000_000)

    /// The failure a write of `tooLarge` into `Item.uid` throws.
    static func isOutOfRange(_ error: any Error) -> Bool {
        guard case .validation(let failures)? = error as? SaveError else { return false }
        return failures.map(\.reason) == [.outOfRange(attribute: "uid", value: tooLarge, range: -2_147_483_648...2_147_483_647)]
    }

    @Test func attributesOfNarrowIntegersCarryTheirRange() {
        #expect(Item.uid.attributeDescription.integerRange == -2_147_483_648...2_147_483_647)
        #expect(Attribute<Int32?>("uid").attributeDescription.integerRange == -2_147_483_648...2_147_483_647)
        #expect(Attribute<Int64>("uid").attributeDescription.integerRange == nil)
        #expect(Attribute<Int>("uid").attributeDescription.integerRange == nil)
    }

    @Test(arguments: TestStore.all) func aBatchInsertRefusesAnIntegerOutOfRangeAndWritesNothing(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let error = await #expect(throws: SaveError.self) {
            try await container.performBackgroundTask { context in
                try await context.batchInsert(Item.entity, rows: [["uid": .integer(1)], ["uid": Self.tooLarge]])
            }
        }
        #expect(error.map(Self.isOutOfRange) == true)
        #expect(try await container.performBackgroundTask { try $0.count(for: FetchRequest(Item.self)) } == 0)
    }

    @Test(arguments: TestStore.all) func aBatchUpdateRefusesAnIntegerOutOfRangeAndWritesNothing(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let error = await #expect(throws: SaveError.self) {
            try await container.performBackgroundTask { context in
                try await context.batchUpdate(FetchRequest(Item.self), set: ["uid": Self.tooLarge])
            }
        }
        #expect(error.map(Self.isOutOfRange) == true)
        #expect(try container.integer("SELECT \"uid\" FROM \"Item\"") == 1)
    }

    @Test(arguments: TestStore.all) func anObjectRefusesAnIntegerOutOfRangeAndTheSaveWritesNothing(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let (uid, saved) = try await container.performBackgroundTask { context in
            let item = context.insert(Item.self)
            item[Item.uid] = 1
            #expect(throws: SchemaError.self) { try item.setValue(Self.tooLarge, forKey: "uid") }
            return (item[Item.uid], try await context.save()?.inserted.count)
        }
        #expect(uid == 1 && saved == 1)
        #expect(try container.integer("SELECT \"uid\" FROM \"Item\"") == 1)
    }

    @Test(arguments: TestStore.all) func anImportSkipsARecordOutOfRange(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let records = [ImportRecord(["uid": .integer(1), "title": .string("one")], position: 1),
                       ImportRecord(["uid": Self.tooLarge, "title": .string("two")], position: 2)]
        let operation = ImportOperation(entity: Item.entity, records: records)
        let queue = ContextOperationQueue(container: container)
        queue.addOperation(operation)
        let summary = try await operation.value
        #expect(summary.inserted == 1)
        #expect(summary.issues.map(\.description) == [
            "record 2: has 5000000000 for 'uid', which is an integer attribute (-2147483648...2147483647)",
        ])
        #expect(try container.integer("SELECT COUNT(*) FROM \"Item\"") == 1)
    }

    /// Another program stores 5,000,000,000 in the `Int32` column: every read of the row throws an error that
    /// names it, where it used to stop the process when the value was read.
    @Test(arguments: TestStore.all) func anIntegerStoredOutOfRangeIsAnErrorNamingTheRow(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1, 2], in: container)
        let id = try await container.performBackgroundTask { context in
            try context.fetch(FetchRequest(Item.self, predicate: Item.uid == 2))[0].objectID
        }
        try container.executeSQL("UPDATE \"Item\" SET \"uid\" = 5000000000 WHERE \"uid\" = 2")
        let expected = StoredValueError(entity: "Item", attribute: try Item.entity.checkedAttribute(named: "uid"),
                                        rowID: try #require(id.rowID), value: Self.tooLarge)
        #expect(expected.description == "the row with _id \(try #require(id.rowID)) of Item holds 5000000000 in 'uid', an integer "
            + "attribute (-2147483648...2147483647); correct that row (another program wrote it), or declare 'uid' with a type that holds its value")
        let context = container.newBackgroundContext()
        let others = try await context.perform { context in
            #expect(throws: expected) { _ = try context.fetch(FetchRequest(Item.self)) }
            #expect(throws: expected) { _ = try context.existingObject(with: id) }
            // The other row still reads.
            return try context.fetch(FetchRequest(Item.self, predicate: Item.uid == 1)).map { $0[Item.uid] }
        }
        #expect(others == [1])
        await #expect(throws: expected) {
            try await container.viewContext.perform { context in _ = try context.liveResults(for: FetchRequest(Item.self)) }
        }
    }

    /// The same for text in a UUID column, which the typed getter could not read either.
    @Test(arguments: TestStore.all) func textThatIsNoUUIDIsAnErrorNamingTheRow(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await container.performBackgroundTask { context in
            let kitchen = context.insert(Kitchen.self)
            kitchen[Kitchen.integer] = 1
            kitchen[Kitchen.double] = 1.5
            kitchen[Kitchen.bool] = true
            kitchen[Kitchen.string] = "s"
            kitchen[Kitchen.date] = Date(timeIntervalSince1970: 0)
            kitchen[Kitchen.uuid] = UUID()
            kitchen[Kitchen.binary] = Data()
            try await context.save()
        }
        try container.executeSQL("UPDATE \"Kitchen\" SET \"uuid\" = 'not a uuid'")
        let error = await #expect(throws: StoredValueError.self) {
            try await container.performBackgroundTask { context in _ = try context.fetch(FetchRequest(Kitchen.self)) }
        }
        #expect(error?.entity == "Kitchen")
        #expect(error?.attribute == "uuid")
        #expect(error?.value == .string("not a uuid"))
    }

    /// Text in a numeric column (SQLite keeps text that is no number whatever the column's type): an error naming
    /// the row, where it used to read as 0 and count in every statistic.
    @Test(arguments: ["integer", "double", "bool", "date"]) func textInANumericColumnIsAnErrorNamingTheRow(column: String) async throws {
        let container = try await makeContainer(.sqliteFile)
        try await container.performBackgroundTask { context in
            let kitchen = context.insert(Kitchen.self)
            kitchen[Kitchen.integer] = 1
            kitchen[Kitchen.double] = 1.5
            kitchen[Kitchen.bool] = true
            kitchen[Kitchen.string] = "s"
            kitchen[Kitchen.date] = Date(timeIntervalSince1970: 0)
            kitchen[Kitchen.uuid] = UUID()
            kitchen[Kitchen.binary] = Data()
            try await context.save()
        }
        try container.executeSQL("UPDATE \"Kitchen\" SET \"\(column)\" = 'forty'")
        let error = await #expect(throws: StoredValueError.self) {
            try await container.performBackgroundTask { context in _ = try context.fetch(FetchRequest(Kitchen.self)) }
        }
        #expect(error?.attribute == column)
        #expect(error?.value == .string("forty"))
    }
}
