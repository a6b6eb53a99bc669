import Testing
@testable import StillpointCore

@Suite("Identity map")
struct IdentityMapTests {
    /// Objects need a graph to belong to; this one is never used otherwise.
    private let graph: ObjectGraph

    init() throws {
        graph = try makeGraph()
    }

    private func object(_ entity: EntityDescription = Item.entity, rowID: Int64) -> ManagedObject {
        ManagedObject(entity: entity, objectID: ObjectID(entityName: entity.name, rowID: rowID), values: entity.initialValues,
                      committedValues: entity.initialValues, version: 1, graph: graph)
    }

    @Test func findsWhatItHoldsInRunsAndOutOfThem() {
        var map = IdentityMap()
        // One long run, rows that start other runs, then more than fit in runs.
        let objects = (1...1_000).map { object(rowID: $0) } + stride(from: 5_000, through: 5_900, by: 100).map { object(rowID: $0) }
            + [object(Row3.entity, rowID: 1)]
        for object in objects { #expect(map.updateValue(object, forKey: object.objectID) == nil) }
        #expect(map.count == objects.count)
        for object in objects { #expect(map[object.objectID] === object) }
        #expect(map[ObjectID(entityName: "Item", rowID: 1_001)] == nil)
        #expect(map[ObjectID(entityName: "Row3", rowID: 2)] == nil)
        #expect(map[ObjectID(entityName: "Kitchen", rowID: 1)] == nil)
        #expect(Set(map.objects.map(ObjectIdentifier.init)) == Set(objects.map(ObjectIdentifier.init)))
    }

    @Test func replacingAndRemovingKeepsEveryOtherObject() {
        var map = IdentityMap()
        let objects = (1...100).map { object(rowID: $0) }
        for object in objects { map[object.objectID] = object }
        let replacement = object(rowID: 50)
        #expect(map.updateValue(replacement, forKey: replacement.objectID) === objects[49])
        #expect(map[replacement.objectID] === replacement && map.count == 100)
        for object in objects[0..<10] { #expect(map.removeValue(forKey: object.objectID) === object) }
        #expect(map.removeValue(forKey: objects[0].objectID) == nil)
        #expect(map.count == 90 && map[objects[0].objectID] == nil && map[objects[10].objectID] === objects[10])
        map[objects[0].objectID] = objects[0]  // back into the hole it left
        #expect(map[objects[0].objectID] === objects[0] && map.count == 91)
        for object in objects[1...] { map[object.objectID] = nil }
        map[objects[0].objectID] = nil
        #expect(map.isEmpty)
    }

    @Test func emptyingARunFromEitherEndGivesItsSlotsBack() {
        var map = IdentityMap()
        let objects = (1...1_000).map { object(rowID: $0) }
        for object in objects { map[object.objectID] = object }
        for object in objects[..<600] { map[object.objectID] = nil }  // in order, as a fetch-delete does
        for object in objects[900...].reversed() { map[object.objectID] = nil }
        #expect(map.count == 300 && map.runSlotCount < 700)
        for object in objects[600..<900] { #expect(map[object.objectID] === object) }
        #expect(map[objects[0].objectID] == nil && map[objects[999].objectID] == nil)
    }

    @Test func aSparseRunMovesToTheDictionaryAndKeepsItsObjects() {
        var map = IdentityMap()
        let objects = (1...1_000).map { object(rowID: $0) }
        for object in objects { map[object.objectID] = object }
        let kept = objects.enumerated().filter { $0.offset % 10 == 5 }.map(\.element)
        for object in objects where !kept.contains(where: { $0 === object }) { map[object.objectID] = nil }
        #expect(map.count == kept.count && map.runSlotCount == 0)
        for object in kept { #expect(map[object.objectID] === object) }
    }

    @Test func smallRunsGiveWayToALargeOne() {
        var map = IdentityMap()
        let scattered = (1...8).map { object(rowID: Int64($0) * 10_000) }  // a run each, filling every place
        for object in scattered { map[object.objectID] = object }
        let saved = (100_001...100_500).map { object(rowID: $0) }
        for object in saved { map[object.objectID] = object }
        #expect(map.runSlotCount >= saved.count)
        for object in scattered + saved { #expect(map[object.objectID] === object) }
    }
}
