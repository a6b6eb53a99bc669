import Testing
@testable import StillpointCore

@Suite("Object ID sets")
struct ObjectIDSetTests {
    private func ids(_ entity: String, _ rowIDs: [Int64]) -> [ObjectID] {
        rowIDs.map { ObjectID(entityName: entity, rowID: $0) }
    }

    @Test func consecutiveRowIDsBecomeOneRunInAnyOrderAndWithDuplicates() {
        let set = ObjectIDSet(ids("Item", [5, 3, 4, 4, 1, 2]))
        #expect(set.count == 5)
        #expect(set.runs(of: "Item") == [1...5])
        #expect(set == ObjectIDSet(entityName: "Item", rowIDs: 1...5))
    }

    @Test func containsFindsEachIDAndNothingElse() {
        let set = ObjectIDSet(ids("Item", [1, 2, 3, 10, 12, 13]) + ids("Row3", [2]))
        #expect(set.runs(of: "Item") == [1...3, 10...10, 12...13])
        for rowID: Int64 in [1, 2, 3, 10, 12, 13] { #expect(set.contains(ObjectID(entityName: "Item", rowID: rowID))) }
        for rowID: Int64 in [0, 4, 9, 11, 14] { #expect(!set.contains(ObjectID(entityName: "Item", rowID: rowID))) }
        #expect(set.contains(ObjectID(entityName: "Row3", rowID: 2)))
        #expect(!set.contains(ObjectID(entityName: "Row3", rowID: 1)))
        #expect(!set.contains(.temporary(entityName: "Item")))
        #expect(set.entityNames == ["Item", "Row3"])
    }

    @Test func iterationGivesEveryIDOnceEntityByEntityInRowOrder() {
        let set: ObjectIDSet = [ObjectID(entityName: "Row3", rowID: 1), ObjectID(entityName: "Item", rowID: 4),
                                ObjectID(entityName: "Item", rowID: 2), ObjectID(entityName: "Item", rowID: 3)]
        #expect(Array(set) == ids("Item", [2, 3, 4]) + ids("Row3", [1]))
    }

    @Test func unionJoinsOverlappingAndAdjacentRuns() {
        var set = ObjectIDSet(entityName: "Item", rowIDs: [1, 2, 3, 8, 9])
        set.formUnion(ObjectIDSet(entityName: "Item", rowIDs: [3, 4, 20]))
        set.insert(ObjectID(entityName: "Item", rowID: 7))
        #expect(set.runs(of: "Item") == [1...4, 7...9, 20...20])
        #expect(set.count == 8)
        #expect(set.union(ObjectIDSet(entityName: "Item", rowIDs: [5, 6])).runs(of: "Item") == [1...9, 20...20])
    }

    @Test func equalSetsAreEqualHoweverTheyWereBuilt() {
        let built = ObjectIDSet(entityName: "Item", runs: [4...6, 1...2, 3...3])
        #expect(built == ObjectIDSet(ids("Item", Array(1...6))))
        #expect(built.hashValue == ObjectIDSet(ids("Item", Array(1...6))).hashValue)
        #expect(ObjectIDSet().isEmpty && ObjectIDSet(entityName: "Item", rowIDs: []).isEmpty)
    }

    @Test func temporaryIDsAreKeptAsideAndCount() {
        let temporary = ObjectID.temporary(entityName: "Item")
        var set: ObjectIDSet = [temporary, ObjectID(entityName: "Item", rowID: 1)]
        #expect(set.count == 2 && set.contains(temporary) && !set.contains(.temporary(entityName: "Item")))
        set.formUnion([temporary, ObjectID(entityName: "Row3", rowID: 1)])
        #expect(set.count == 3 && set.entityNames == ["Item", "Row3"])
        #expect(Array(set).last == temporary)
    }

    @Test func rowIDsAtTheEndsOfTheirRangeDoNotOverflow() {
        let set = ObjectIDSet(entityName: "Item", rowIDs: [.max - 1, .max, .min])
        #expect(set.runs(of: "Item") == [.min ... .min, (.max - 1) ... .max] && set.count == 3)
        #expect(set.union(ObjectIDSet(entityName: "Item", rowIDs: [.max])).count == 3)
    }
}
