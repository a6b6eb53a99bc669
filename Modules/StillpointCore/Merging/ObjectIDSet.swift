/// A set of saved objects' IDs, kept per entity as runs of consecutive row ids.
///
/// A save or batch operation changes rows that are mostly consecutive (new rows get the next ids; a batch
/// delete takes a stretch of the table), so 50,000 IDs are usually a handful of runs: building, storing,
/// recording and sending the set costs next to nothing, where a `Set<ObjectID>` would hash every ID.
///
/// ```swift
/// for await changes in container.changeSets where changes.deleted.contains(id) {
///     print("\(id) was deleted by \(changes.author)")
/// }
/// ```
///
/// Temporary IDs (of objects not saved yet) are kept aside in an ordinary set; change sets never hold any.
public struct ObjectIDSet: Sendable, Hashable, Sequence, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// Sorted, disjoint and non-adjacent runs of row ids, by entity name.
    private(set) var runsByEntity: [String: [ClosedRange<Int64>]] = [:]
    private var temporaryIDs: Set<ObjectID> = []
    /// The number of IDs.
    public private(set) var count = 0

    public init() {}

    public init(arrayLiteral ids: ObjectID...) {
        self.init(ids)
    }

    public init<IDs: Sequence<ObjectID>>(_ ids: IDs) {
        var builder = Builder()
        for id in ids { builder.append(id) }
        self = builder.build()
    }

    /// The IDs of an entity's rows, in any order, duplicates allowed.
    package init(entityName: String, rowIDs: [Int64]) {
        // Concrete, so that the store modules' calls (a batch of 50,000 rows) run the specialized loop: a generic
        // initializer called from another module runs unspecialized.
        self.init(entityName: entityName, collecting: rowIDs)
    }

    package init(entityName: String, rowIDs: some Collection<Int64>) {
        self.init(entityName: entityName, collecting: rowIDs)
    }

    private init(entityName: String, collecting rowIDs: some Collection<Int64>) {
        let runs = Self.runs(of: rowIDs)
        guard !runs.isEmpty else { return }
        runsByEntity[entityName] = runs
        count = runs.reduce(0) { $0 + $1.count }
    }

    /// The IDs of an entity's rows in `runs`, which may overlap and come in any order.
    init(entityName: String, runs: [ClosedRange<Int64>]) {
        let merged = Self.union([], runs)
        guard !merged.isEmpty else { return }
        runsByEntity[entityName] = merged
        count = merged.reduce(0) { $0 + $1.count }
    }

    public var isEmpty: Bool { count == 0 }

    /// The entities with at least one ID in the set.
    public var entityNames: Set<String> { Set(runsByEntity.keys).union(temporaryIDs.map(\.entityName)) }

    public func contains(_ id: ObjectID) -> Bool {
        guard let rowID = id.rowID else { return temporaryIDs.contains(id) }
        guard let runs = runsByEntity[id.entityName] else { return false }
        // The last run whose lower bound is at most `rowID` is the only one that can hold it.
        var low = 0, high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle].lowerBound <= rowID { low = middle + 1 } else { high = middle }
        }
        return low > 0 && runs[low - 1].contains(rowID)
    }

    /// The runs of row ids of one entity, in ascending order.
    func runs(of entityName: String) -> [ClosedRange<Int64>] {
        runsByEntity[entityName] ?? []
    }

    public mutating func insert(_ id: ObjectID) {
        formUnion(ObjectIDSet([id]))
    }

    public mutating func formUnion(_ other: ObjectIDSet) {
        count += other.temporaryIDs.subtracting(temporaryIDs).count
        temporaryIDs.formUnion(other.temporaryIDs)
        for (entityName, runs) in other.runsByEntity {
            let merged = Self.union(runsByEntity[entityName] ?? [], runs)
            count += merged.reduce(0) { $0 + $1.count } - (runsByEntity[entityName] ?? []).reduce(0) { $0 + $1.count }
            runsByEntity[entityName] = merged
        }
    }

    public func union(_ other: ObjectIDSet) -> ObjectIDSet {
        var union = self
        union.formUnion(other)
        return union
    }

    /// The first ID in iteration order.
    public var first: ObjectID? {
        makeIterator().next()
    }

    /// The IDs entity by entity (in name order), each entity's in row order; temporary IDs last.
    public func makeIterator() -> AnyIterator<ObjectID> {
        var saved = runsByEntity.sorted { $0.key < $1.key }.lazy.flatMap { entityName, runs in
            runs.lazy.joined().map { ObjectID(entityName: entityName, rowID: $0) }
        }.makeIterator()
        var temporary = temporaryIDs.sorted { $0.description < $1.description }.makeIterator()
        return AnyIterator { saved.next() ?? temporary.next() }
    }

    public var description: String {
        let entities = runsByEntity.sorted { $0.key < $1.key }.map { name, runs in
            "\(name): " + runs.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)...\($0.upperBound)" }
                .joined(separator: ", ")
        }
        return "[" + (entities + temporaryIDs.map(\.description).sorted()).joined(separator: "; ") + "]"
    }

    // MARK: Runs

    /// Runs of `rowIDs`: one pass when they come in ascending order, as a save's and a query's do.
    static func runs(of rowIDs: some Collection<Int64>) -> [ClosedRange<Int64>] {
        var ascending = true
        var previous = Int64.min
        for rowID in rowIDs {
            if rowID < previous {
                ascending = false
                break
            }
            previous = rowID
        }
        guard ascending else { return runs(ofAscending: rowIDs.sorted()) }
        return runs(ofAscending: rowIDs)
    }

    private static func runs(ofAscending rowIDs: some Collection<Int64>) -> [ClosedRange<Int64>] {
        var runs: [ClosedRange<Int64>] = []
        guard var start = rowIDs.first else { return runs }
        var end = start
        for rowID in rowIDs.dropFirst() where rowID != end {
            if end < .max, rowID == end + 1 {
                end = rowID
            } else {
                runs.append(start...end)
                start = rowID
                end = rowID
            }
        }
        runs.append(start...end)
        return runs
    }

    private static func union(_ left: [ClosedRange<Int64>], _ right: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
        let ordered = (left + right).sorted { $0.lowerBound < $1.lowerBound }
        guard !ordered.isEmpty else { return [] }
        var merged: [ClosedRange<Int64>] = [ordered[0]]
        for run in ordered.dropFirst() {
            let last = merged[merged.count - 1]
            if last.upperBound == .max || run.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...Swift.max(last.upperBound, run.upperBound)
            } else {
                merged.append(run)
            }
        }
        return merged
    }

    // MARK: Building

    /// Collects IDs one by one, cheaply when they come entity by entity, and makes the set once.
    package struct Builder {
        private var rowIDs: [String: [Int64]] = [:]
        private var lastEntityName: String?
        private var lastRowIDs: [Int64] = []

        private var temporaryIDs: Set<ObjectID> = []

        package init() {}

        package mutating func append(_ id: ObjectID) {
            guard let rowID = id.rowID else {
                temporaryIDs.insert(id)
                return
            }
            if id.entityName != lastEntityName {
                flush()
                lastEntityName = id.entityName
                lastRowIDs = rowIDs.removeValue(forKey: id.entityName) ?? []
            }
            lastRowIDs.append(rowID)
        }

        private mutating func flush() {
            guard let lastEntityName else { return }
            rowIDs[lastEntityName] = lastRowIDs
            lastRowIDs = []
        }

        package mutating func build() -> ObjectIDSet {
            flush()
            var set = ObjectIDSet()
            set.temporaryIDs = temporaryIDs
            set.count = temporaryIDs.count
            for (entityName, rowIDs) in rowIDs {
                set.formUnion(ObjectIDSet(entityName: entityName, rowIDs: rowIDs))
            }
            return set
        }
    }
}
