import Foundation

/// How an import maps records onto one entity: where the key attributes are, which attributes an insert
/// needs, and how a record's values become the values the store will hand back.
package struct ImportPlan: Sendable {
    /// A record checked against the entity: its key and its values by attribute position.
    package struct Row: Sendable {
        package let key: [AttributeValue]
        package let values: [(position: Int, value: AttributeValue)]
        package let position: Int?
        /// The object the record asks its row to be linked to (``ImportRecord/link``).
        package let link: ObjectID?
    }

    /// A record after checking: a row to store, or the reason to skip it.
    package enum Checked {
        case row(Row)
        case skipped(ImportRecordIssue)
    }

    package let entity: EntityDescription
    package let key: [String]
    package let keyPositions: [Int]
    /// Attributes that are required and have no default: an insert without them would fail to save.
    package let requiredPositions: [Int]
    /// The values of a new row before the record's are set: each attribute's default, or null.
    package let initialValues: ContiguousArray<AttributeValue>
    /// The attribute that records which import wrote a row (``ImportOperation/provenance``), if any.
    package let provenancePosition: Int?

    /// - Throws: ``SchemaError`` when a key or provenance attribute is not an attribute of the entity.
    package init(entity: EntityDescription, key: [String], provenance: String? = nil) throws {
        self.entity = entity
        self.key = key
        self.keyPositions = try key.map { try entity.position(of: $0) }
        self.provenancePosition = try provenance.map { try entity.position(of: $0) }
        self.requiredPositions = entity.storedAttributes.indices.filter { position in
            let attribute = entity.storedAttributes[position]
            return !attribute.isOptional && attribute.initialValue.isNull
        }
        self.initialValues = ContiguousArray(entity.storedAttributes.map(\.initialValue))
    }

    /// The record as a row, or the issue that makes it skipped.
    ///
    /// - Throws: ``SchemaError`` for an attribute name the entity does not have: that is a mistake in the
    ///   importer, not in the data, so the import stops rather than skipping every record.
    package func check(_ record: ImportRecord) throws -> Checked {
        var values: [(position: Int, value: AttributeValue)] = []
        values.reserveCapacity(record.values.count)
        for (name, value) in record.values {
            let position = try entity.position(of: name)
            let attribute = entity.storedAttributes[position]
            guard let stored = Self.storedForm(of: value, for: attribute) else {
                let what = value.isNull ? "has no value for the required attribute '\(name)'"
                    : "has \(value) for '\(name)', which is \(attribute.kindDescription)"
                return .skipped(ImportRecordIssue(position: record.position, reason: what))
            }
            values.append((position, stored))
        }
        values.sort { $0.position < $1.position }
        var keyValues: [AttributeValue] = []
        keyValues.reserveCapacity(keyPositions.count)
        for (name, position) in zip(key, keyPositions) {
            guard let value = values.first(where: { $0.position == position })?.value, !value.isNull else {
                return .skipped(ImportRecordIssue(position: record.position, reason: "has no value for the key attribute '\(name)'"))
            }
            keyValues.append(value)
        }
        return .row(Row(key: keyValues, values: values, position: record.position, link: record.link))
    }

    /// The issue that stops a row from being inserted: a required attribute without a value.
    package func insertIssue(for row: Row) -> ImportRecordIssue? {
        for position in requiredPositions where !row.values.contains(where: { $0.position == position }) {
            return ImportRecordIssue(position: row.position, reason: "has no value for the required attribute '\(entity.storedAttributes[position].name)'")
        }
        return nil
    }

    /// The value as the store will read it back, or `nil` when it does not fit the attribute.
    ///
    /// Comparing a record with a stored object (is it unchanged?) and matching keys both need the stored
    /// form: an integer in a double attribute reads back as a double, and a date through its seconds since
    /// 1970, which can move its last bit.
    package static func storedForm(of value: AttributeValue, for attribute: AttributeDescription) -> AttributeValue? {
        switch (value, attribute.type) {
        case (.null, _):
            return attribute.isOptional ? .null : nil
        case (.integer(let number), .double):
            return .double(Double(number))
        case (.date(var date), .date):
            // A round trip or two reaches a date that comes back from the store unchanged.
            for _ in 0..<3 {
                let stored = Date(timeIntervalSince1970: date.timeIntervalSince1970)
                if stored == date { break }
                date = stored
            }
            return .date(date)
        default:
            return attribute.admits(value) ? value : nil
        }
    }
}
