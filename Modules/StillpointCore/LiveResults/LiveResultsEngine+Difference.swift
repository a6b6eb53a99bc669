extension LiveResultsEngine {
    /// The difference from the rows before a change to the rows now, when only the change's candidates (rows of either)
    /// can have come, gone, moved or changed: every other row is in both, in the same order. Costs a binary
    /// search per candidate, whatever the number of rows.
    func difference(from oldRows: LiveRows, oldSections: [LiveSection], change: Change) -> LiveDifference {
        let oldMembers = change.old
        let candidates = change.candidates
        let newSections = sections()
        // Each candidate's place before and after, in the flat order.
        var before: [(rowID: Int64, index: Int)] = []
        var after: [(rowID: Int64, index: Int)] = []
        for rowID in candidates {
            if let old = oldMembers[rowID] { before.append((rowID, lowerBound(of: old, in: oldRows))) }
            if let new = members[rowID] { after.append((rowID, lowerBound(of: new, in: rows))) }
        }
        before.sort { $0.index < $1.index }
        after.sort { $0.index < $1.index }
        // How many rows that are not candidates (and so keep their order) come before each candidate.
        var steadyBefore: [Int64: (index: Int, steady: Int)] = [:]
        for (rank, entry) in before.enumerated() { steadyBefore[entry.rowID] = (entry.index, entry.index - rank) }
        var steadyAfter: [Int64: (index: Int, steady: Int)] = [:]
        for (rank, entry) in after.enumerated() { steadyAfter[entry.rowID] = (entry.index, entry.index - rank) }

        var difference = LiveDifference()
        var deleted: [Int] = []
        var inserted: [Int] = []
        var moved: [(from: Int, to: Int)] = []
        var updated: [Int] = []
        // A row in both stays put when it keeps its section, as many steady rows precede it, and the rows that
        // stay keep their order among themselves (taken greedily in the old order); every other row in both moved.
        var lastStaying = -1
        for entry in before {
            guard let new = steadyAfter[entry.rowID] else {
                deleted.append(entry.index)
                continue
            }
            let old = steadyBefore[entry.rowID]
            let keepsSection = oldMembers[entry.rowID].map(sectionValue) == members[entry.rowID].map(sectionValue)
            if keepsSection && old?.steady == new.steady && new.index > lastStaying {
                lastStaying = new.index
                if oldMembers[entry.rowID] != members[entry.rowID] { updated.append(new.index) }
            } else {
                moved.append((entry.index, new.index))
            }
        }
        for entry in after where steadyBefore[entry.rowID] == nil { inserted.append(entry.index) }

        // Unsectioned results keep their one section, empty or not.
        if sectionKeyPosition != nil {
            let oldValues = Set(oldSections.map(\.value))
            let newValues = Set(newSections.map(\.value))
            difference.deletedSections = oldSections.indices.filter { !newValues.contains(oldSections[$0].value) }
            difference.insertedSections = newSections.indices.filter { !oldValues.contains(newSections[$0].value) }
        }
        difference.deleted = deleted.sorted().map { Self.position(of: $0, in: oldSections) }
        difference.inserted = inserted.sorted().map { Self.position(of: $0, in: newSections) }
        difference.moved = moved.sorted { $0.to < $1.to }.map {
            LiveMove(from: Self.position(of: $0.from, in: oldSections), to: Self.position(of: $0.to, in: newSections))
        }
        difference.updated = updated.sorted().map { Self.position(of: $0, in: newSections) }
        return difference
    }

    /// The section and place in it of the row at `index` in the flat order.
    static func position(of index: Int, in sections: [LiveSection]) -> LivePosition {
        var low = 0, high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if sections[middle].start + sections[middle].count <= index { low = middle + 1 } else { high = middle }
        }
        // Empty sections (only the one section of empty, unsectioned results) hold no index.
        let section = min(low, max(0, sections.count - 1))
        return LivePosition(section: section, item: index - (sections.isEmpty ? 0 : sections[section].start))
    }
}
