import Foundation

/// The changes of one change-log entry as every store writes them: per entity, the inserted, updated and deleted
/// row ids as ranges (inserts are mostly contiguous) and the names of the changed attributes.
///
/// Written by hand in the form `JSONDecoder` reads back, since `JSONEncoder` costs more than the rest of a small
/// save: `{"Item":{"inserted":[[1,5]],"updated":[],"deleted":[[9,9]],"attributes":["title"]}}`.
///
/// ```swift
/// let text = ChangeLogPayload.text(inserted: ids, updated: ObjectIDSet(), deleted: ObjectIDSet(), changedAttributes: [:])
/// let changeSet = ChangeLogPayload.changeSet(sequence: 7, author: "import", timestamp: date, text: text)
/// ```
package enum ChangeLogPayload {
    /// The changes of one entity in one entry.
    package struct EntityChanges: Codable, Equatable {
        package var inserted: [[Int64]] = []
        package var updated: [[Int64]] = []
        package var deleted: [[Int64]] = []
        package var attributes: [String] = []

        package init(inserted: [[Int64]] = [], updated: [[Int64]] = [], deleted: [[Int64]] = [], attributes: [String] = []) {
            self.inserted = inserted
            self.updated = updated
            self.deleted = deleted
            self.attributes = attributes
        }
    }

    /// The entry's text for a change set's ids and changed attributes.
    package static func text(inserted: ObjectIDSet, updated: ObjectIDSet, deleted: ObjectIDSet,
                             changedAttributes: [String: Set<String>]) -> String {
        var byEntity: [String: EntityChanges] = [:]
        func add(_ ids: ObjectIDSet, _ path: WritableKeyPath<EntityChanges, [[Int64]]>) {
            for (entity, runs) in ids.runsByEntity {
                byEntity[entity, default: EntityChanges()][keyPath: path] = runs.map { [$0.lowerBound, $0.upperBound] }
            }
        }
        add(inserted, \.inserted)
        add(updated, \.updated)
        add(deleted, \.deleted)
        for (entity, names) in changedAttributes {
            byEntity[entity, default: EntityChanges()].attributes = names.sorted()
        }
        return text(byEntity)
    }

    /// The entry's text for its changes by entity.
    package static func text(_ byEntity: [String: EntityChanges]) -> String {
        func ranges(_ ranges: [[Int64]]) -> String {
            "[" + ranges.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }.joined(separator: ",") + "]"
        }
        let entities = byEntity.sorted { $0.key < $1.key }.map { entity, changes in
            JSONText.quoted(entity) + ":{\"inserted\":" + ranges(changes.inserted) + ",\"updated\":" + ranges(changes.updated)
                + ",\"deleted\":" + ranges(changes.deleted)
                + ",\"attributes\":[" + changes.attributes.map(JSONText.quoted).joined(separator: ",") + "]}"
        }
        return "{" + entities.joined(separator: ",") + "}"
    }

    /// The change set of an entry, or `nil` when its text cannot be read (a damaged store may hold anything).
    package static func changeSet(sequence: Int64, author: String, timestamp: Date, text: String) -> ChangeSet? {
        guard let byEntity = try? JSONDecoder().decode([String: EntityChanges].self, from: Data(text.utf8)) else { return nil }
        var inserted = ObjectIDSet(), updated = ObjectIDSet(), deleted = ObjectIDSet()
        var attributes: [String: Set<String>] = [:]
        for (entity, changes) in byEntity {
            inserted.formUnion(ids(changes.inserted, entity))
            updated.formUnion(ids(changes.updated, entity))
            deleted.formUnion(ids(changes.deleted, entity))
            if !changes.attributes.isEmpty { attributes[entity] = Set(changes.attributes) }
        }
        return ChangeSet(sequence: sequence, author: author, timestamp: timestamp,
                         inserted: inserted, updated: updated, deleted: deleted, changedAttributes: attributes)
    }

    package static func ids(_ runs: [[Int64]], _ entity: String) -> ObjectIDSet {
        // A damaged row's ranges are skipped rather than trusted: none is reversed or absurdly long.
        ObjectIDSet(entityName: entity, runs: runs.compactMap { range in
            guard range.count == 2, range[0] <= range[1] else { return nil }
            let (length, overflow) = range[1].subtractingReportingOverflow(range[0])
            guard !overflow, length < 1 << 40 else { return nil }
            return range[0]...range[1]
        })
    }
}
