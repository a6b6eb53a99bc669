import StillpointCore

/// Seed 004's entity: one integer and one string attribute.
///
/// Its table is `"_id" INTEGER PRIMARY KEY, "_version" INTEGER NOT NULL DEFAULT 1, "uid" INTEGER NOT NULL,
/// "title" TEXT NOT NULL`, the shape ``RawSQLite/createItemTable()`` gives the baseline.
enum Item: Entity {
    static let uid = Attribute<Int32>("uid")
    static let title = Attribute<String>("title")
    static let entity = EntityDescription("Item", attributes: [uid, title])

    static let schema: Schema = {
        do {
            return try Schema([Item.self])
        } catch {
            fatalError("the Item schema is invalid: \(error)")
        }
    }()

    /// The title of the item with `uid`, the same on both sides of the benchmark.
    static func title(_ uid: Int32) -> String { "Item \(uid)" }
}

extension RawSQLite {
    /// Creates the table Stillpoint makes for ``Item``, column for column.
    func createItemTable() throws {
        try execute("""
            CREATE TABLE "Item" ("_id" INTEGER PRIMARY KEY, "_version" INTEGER NOT NULL DEFAULT 1, \
            "uid" INTEGER NOT NULL, "title" TEXT NOT NULL)
            """)
    }
}
