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
        var firstRowID: Int64
        var objects: [ManagedObject?]
        var count: Int
        /// Slots before this one are empty: a run emptied from its front (deleting what a fetch returned, in
        /// order) drops them in batches rather than shifting the array for each.
        var start = 0

        init(entityName: String, firstRowID: Int64, object: ManagedObject) {
            self.entityName = entityName
            self.firstRowID = firstRowID
            self.objects = [object]
            self.count = 1
        }

        /// Where `rowID` goes relative to the run: its slot, `objects.count` just past the end, or `nil` elsewhere.
        func offset(of rowID: Int64) -> Int? {
            let (offset, overflow) = rowID.subtractingReportingOverflow(firstRowID)
            guard !overflow, offset >= Int64(start), offset <= Int64(objects.count) else { return nil }
            return Int(offset)
        }

        func slot(of id: ObjectID) -> Int? {
            guard let rowID = id.rowID, let offset = offset(of: rowID), offset < objects.count, id.entityName == entityName else { return nil }
            return offset
        }

        func isEnd(of id: ObjectID) -> Bool {
            guard let rowID = id.rowID else { return false }
            return offset(of: rowID) == objects.count && id.entityName == entityName
        }

        /// Empties `slot`; afterwards the run has no empty slot at either end.
        mutating func empty(_ slot: Int) {
            objects[slot] = nil
            count -= 1
            while objects.count > start, objects[objects.count - 1] == nil { objects.removeLast() }
            while start < objects.count, objects[start] == nil { start += 1 }
            if start > 0, start * 2 >= objects.count {
                objects.removeFirst(start)
                firstRowID += Int64(start)
                start = 0
            }
        }

        /// Whether most of its slots are empty.
        var isSparse: Bool {
            objects.count - start >= IdentityMap.minimumRunToKeep && count < (objects.count - start) / 4
        }
    }

    /// A few runs at most: each look-up scans them before the dictionary.
    private static let maximumRuns = 8
    /// A run holding fewer objects than this gives way to a new run when there is no room, and a run with this
    /// many slots or more moves to the dictionary once three quarters of them are empty.
    private static let minimumRunToKeep = 64

    private var runs: [Run] = []
    private var others: [ObjectID: ManagedObject] = [:]

    var count: Int { others.count + runs.reduce(0) { $0 + $1.count } }
    /// The slots the runs keep, empty ones included: what the map's memory follows, for tests.
    var runSlotCount: Int { runs.reduce(0) { $0 + $1.objects.count - $1.start } }
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
            // The row after a run's last extends it; otherwise a new run starts, in place of a small one if need be.
            if let index = runs.firstIndex(where: { $0.isEnd(of: id) }) {
                runs[index].objects.append(object)
                runs[index].count += 1
                return nil
            }
            if runs.count == Self.maximumRuns, let smallest = runs.indices.min(by: { runs[$0].count < runs[$1].count }),
               runs[smallest].count < Self.minimumRunToKeep {
                moveToOthers(runs.remove(at: smallest))
            }
            if runs.count < Self.maximumRuns {
                runs.append(Run(entityName: id.entityName, firstRowID: rowID, object: object))
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
            runs[index].empty(slot)
            // A run holds its slots only while it is mostly full: a sparse one moves to the dictionary.
            if runs[index].count == 0 {
                runs.remove(at: index)
            } else if runs[index].isSparse {
                moveToOthers(runs.remove(at: index))
            }
            return previous
        }
        return others.isEmpty ? nil : others.removeValue(forKey: id)
    }

    private mutating func moveToOthers(_ run: Run) {
        for (offset, object) in run.objects.enumerated() {
            guard let object else { continue }  // (an empty slot, or one before `start`)
            others[ObjectID(entityName: run.entityName, rowID: run.firstRowID + Int64(offset))] = object
        }
    }

    mutating func removeAll() {
        runs = []
        others = [:]
    }
}
