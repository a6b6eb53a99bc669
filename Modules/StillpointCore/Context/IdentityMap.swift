/// The objects a context holds, by ID: one instance per object.
///
/// Objects whose row ids follow one another (the new rows of a save, a fetch in row order) are kept in runs:
/// arrays placed by row id, which register, find and forget an object without hashing its ID. Others go in a
/// dictionary. Registering the 50,000 objects of a save in a dictionary costs about as much as the rest of
/// applying the save; in a run it costs an append each.
struct IdentityMap {
    /// Objects of one entity with row ids `firstRowID...`, `nil` where none is held.
    private struct Run {
        let entityName: String
        let firstRowID: Int64
        var objects: [ManagedObject?]
        var count: Int

        var endRowID: Int64 { firstRowID + Int64(objects.count) }

        func slot(of id: ObjectID) -> Int? {
            guard let rowID = id.rowID, rowID >= firstRowID, rowID < endRowID, id.entityName == entityName else { return nil }
            return Int(rowID - firstRowID)
        }
    }

    /// A few runs at most: each look-up scans them before the dictionary.
    private static let maximumRuns = 8

    private var runs: [Run] = []
    private var others: [ObjectID: ManagedObject] = [:]

    var count: Int { others.count + runs.reduce(0) { $0 + $1.count } }
    var isEmpty: Bool { others.isEmpty && runs.isEmpty }

    /// Every object held, in no particular order.
    var objects: [ManagedObject] {
        var objects = Array(others.values)
        for run in runs { objects += run.objects.lazy.compactMap { $0 } }
        return objects
    }

    subscript(id: ObjectID) -> ManagedObject? {
        get {
            for run in runs {
                if let slot = run.slot(of: id) { return run.objects[slot] }
            }
            return others.isEmpty ? nil : others[id]
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: id)
            } else {
                removeValue(forKey: id)
            }
        }
    }

    /// Holds `object` under `id`; returns the object held under it before, if any.
    @discardableResult
    mutating func updateValue(_ object: ManagedObject, forKey id: ObjectID) -> ManagedObject? {
        for index in runs.indices {
            if let slot = runs[index].slot(of: id) {
                let previous = runs[index].objects[slot]
                runs[index].objects[slot] = object
                if previous == nil { runs[index].count += 1 }
                return previous
            }
        }
        if let rowID = id.rowID, others.isEmpty || others[id] == nil {
            // The row after a run's last extends it; otherwise a new run starts while there is room for one.
            if let index = runs.firstIndex(where: { $0.endRowID == rowID && $0.entityName == id.entityName }) {
                runs[index].objects.append(object)
                runs[index].count += 1
                return nil
            }
            if runs.count < Self.maximumRuns {
                runs.append(Run(entityName: id.entityName, firstRowID: rowID, objects: [object], count: 1))
                return nil
            }
        }
        return others.updateValue(object, forKey: id)
    }

    /// Forgets the object held under `id`, and returns it.
    @discardableResult
    mutating func removeValue(forKey id: ObjectID) -> ManagedObject? {
        for index in runs.indices {
            guard let slot = runs[index].slot(of: id) else { continue }
            guard let previous = runs[index].objects[slot] else { return nil }
            runs[index].objects[slot] = nil
            runs[index].count -= 1
            if runs[index].count == 0 { runs.remove(at: index) }
            return previous
        }
        return others.isEmpty ? nil : others.removeValue(forKey: id)
    }

    mutating func removeAll() {
        runs = []
        others = [:]
    }

    /// Keeps only the objects for which `isIncluded` holds.
    mutating func filter(_ isIncluded: (ManagedObject) -> Bool) {
        for index in runs.indices {
            for slot in runs[index].objects.indices {
                if let object = runs[index].objects[slot], !isIncluded(object) {
                    runs[index].objects[slot] = nil
                    runs[index].count -= 1
                }
            }
        }
        runs.removeAll { $0.count == 0 }
        others = others.filter { isIncluded($0.value) }
    }
}
