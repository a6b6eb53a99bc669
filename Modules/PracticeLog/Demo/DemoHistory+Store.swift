import Foundation
import StillpointCore

extension DemoHistory {
    /// Writes the history into a store as the sessions of the practitioner `practitioner` (made if the store has
    /// none) in batches of `batchSize` rows, and returns how many sessions it wrote.
    ///
    /// Sessions whose key the practitioner already has are skipped, so writing the same history twice adds nothing.
    @discardableResult
    public func write(to container: PersistentContainer, practitioner: String = Practitioner.defaultID,
                      batchSize: Int = 5_000) async throws -> Int {
        let owner = try await Practitioners.rowID(of: practitioner, in: container)
        let context = container.newBackgroundContext(name: "demo")
        var written = 0
        var batch: [[String: AttributeValue]] = []
        batch.reserveCapacity(batchSize)
        func flush() async throws {
            let rows = batch
            batch.removeAll(keepingCapacity: true)
            written += try await context.perform { context in
                let keys = rows.compactMap { row -> String? in if case .string(let key)? = row["key"] { return key } else { return nil } }
                var existing: Set<String> = []
                var request = FetchRequest(Session.self, predicate: try FetchPredicate("practitioner._id == %@ AND key IN %@", owner, keys))
                request.properties = [.attribute("key")]
                try context.forEachRow(request) { values in
                    if case .string(let key) = values[0] { existing.insert(key) }
                }
                let fresh = rows.filter { row in
                    guard case .string(let key)? = row["key"] else { return false }
                    return !existing.contains(key)
                }
                return try await context.batchInsert(Session.entity, rows: fresh).count
            }
        }
        for record in self {
            var values = record.attributeValues
            values[Session.practitioner.name] = .integer(owner)
            batch.append(values)
            if batch.count == batchSize { try await flush() }
        }
        if !batch.isEmpty { try await flush() }
        return written
    }
}
