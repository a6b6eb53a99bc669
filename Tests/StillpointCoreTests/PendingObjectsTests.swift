import Testing
@testable import StillpointCore

@Suite("Pending objects")
struct PendingObjectsTests {
    private let graph: ObjectGraph

    init() throws {
        graph = try makeGraph()
    }

    private func newObject() -> ManagedObject {
        ManagedObject(entity: Item.entity, objectID: .temporary(entityName: "Item"), values: Item.entity.initialValues,
                      committedValues: nil, version: 0, graph: graph)
    }

    @Test func keepsJoiningOrderThroughRemovalsAndCompaction() {
        var set = PendingObjects(.inserted)
        let objects = (0..<200).map { _ in newObject() }
        for object in objects { set.insert(object) }
        set.insert(objects[0])  // already in: nothing changes
        #expect(set.count == 200)
        // Removing most of them compacts the storage; the order of the rest stays.
        var removed = 0
        for (index, object) in objects.enumerated() where index % 10 != 0 && set.remove(object) { removed += 1 }
        let removedAgain = set.remove(objects[1])
        #expect(removed == 180 && !removedAgain)
        let kept = objects.enumerated().filter { $0.offset % 10 == 0 }.map(\.element)
        #expect(set.objects.map(ObjectIdentifier.init) == kept.map(ObjectIdentifier.init))
        #expect(kept.allSatisfy { set.contains($0) } && !set.contains(objects[1]))
        set.removeAll()
        #expect(set.isEmpty && !set.contains(kept[0]))
    }

    @Test func findsObjectsByIDAcrossChangesAndNewIDs() {
        var set = PendingObjects(.inserted)
        let objects = (0..<10).map { _ in newObject() }
        for object in objects { set.insert(object) }
        let third = set.object(for: objects[3].objectID)  // builds the index
        #expect(third === objects[3])
        let late = newObject()
        set.insert(late)
        set.remove(objects[4])
        let (found, removed) = (set.object(for: late.objectID), set.object(for: objects[4].objectID))
        #expect(found === late && removed == nil)
        let temporary = objects[5].objectID
        objects[5].objectID = ObjectID(entityName: "Item", rowID: 42)
        set.objectDidChangeID(objects[5], from: temporary)
        let (byNewID, byOldID) = (set.object(for: ObjectID(entityName: "Item", rowID: 42)), set.object(for: temporary))
        #expect(byNewID === objects[5] && byOldID == nil)
    }

    @Test func anObjectIsInEachKindOfSetOnItsOwn() {
        var inserted = PendingObjects(.inserted), deleted = PendingObjects(.deleted)
        let object = newObject()
        inserted.insert(object)
        deleted.insert(object)
        let removed = inserted.remove(object)
        #expect(removed && deleted.contains(object))
    }
}
