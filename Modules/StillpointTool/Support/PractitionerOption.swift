import ArgumentParser
import PracticeLog
import StillpointCore

/// `--practitioner ID`: whose sessions a command reads or writes. The command's container is scoped to that
/// practitioner (``FetchScope``), so every context it makes sees their sessions, runs and practitioner only.
/// Without it, a store of at most one practitioner is used as a whole, and a store of several is refused
/// (docs/practitioners.md).
///
/// ```swift
/// @OptionGroup var practitionerOption: PractitionerOption
/// let container = try await storeOption.open(logger: logger)
/// try await practitionerOption.scope(container)
/// ```
struct PractitionerOption: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The practitioner whose sessions to use, by id; needed when the store holds several.", valueName: "id"))
    var practitioner: String?

    /// How many ids a refusal names.
    static let idsShown = 3

    /// Scopes `container` to the practitioner named, and returns their row id; without a name, scopes nothing and
    /// returns `nil` when the store holds at most one practitioner.
    ///
    /// - Throws: a usage failure (64) when the store holds several practitioners and none is named, or when the one
    ///   named is not in the store.
    @discardableResult
    func scope(_ container: PersistentContainer) async throws -> Int64? {
        let (count, ids) = try await Self.practitioners(in: container)
        guard let practitioner else {
            if count > 1 { throw Self.manyPractitioners(count, ids) }
            return nil
        }
        guard let rowID = try await Self.rowID(of: practitioner, in: container) else {
            throw ToolFailure("there is no practitioner '\(practitioner)' in this store"
                              + (ids.isEmpty ? "" : " (it holds \(Self.listed(count, ids)))")
                              + "; name one of its practitioners with --practitioner", status: .usage)
        }
        await container.setScope(try .practitioner(rowID))
        return rowID
    }

    /// For a command that writes sessions: the practitioner named (made if the store has none of that id), else
    /// the store's one practitioner, else ``Practitioner/defaultID``; the container is scoped to them.
    ///
    /// - Throws: a usage failure (64) when the store holds several practitioners and none is named.
    func scopeForWriting(_ container: PersistentContainer) async throws -> (id: String, rowID: Int64) {
        let (count, ids) = try await Self.practitioners(in: container)
        if practitioner == nil, count > 1 { throw Self.manyPractitioners(count, ids) }
        let id = practitioner ?? ids.first ?? Practitioner.defaultID
        let rowID = try await Practitioners.rowID(of: id, in: container)
        await container.setScope(try .practitioner(rowID))
        return (id, rowID)
    }

    private static func manyPractitioners(_ count: Int, _ ids: [String]) -> ToolFailure {
        ToolFailure("this store holds \(listed(count, ids)): name whose sessions to use with --practitioner ID", status: .usage)
    }

    private static func listed(_ count: Int, _ ids: [String]) -> String {
        let shown = ids.prefix(idsShown).joined(separator: ", ") + (count > idsShown ? ", …" : "")
        return "\(count) practitioner\(count == 1 ? "" : "s") (\(shown))"
    }

    /// How many practitioners the store holds, and the first ids in id order.
    private static func practitioners(in container: PersistentContainer) async throws -> (Int, [String]) {
        try await reading(container) { context in
            let count = try context.count(for: FetchRequest(Practitioner.self))
            var request = FetchRequest(Practitioner.self, sortedBy: [.ascending(Practitioner.id)], limit: idsShown)
            request.includesPendingChanges = false
            return (count, try context.fetch(request).map { $0[Practitioner.id] })
        }
    }

    private static func rowID(of id: String, in container: PersistentContainer) async throws -> Int64? {
        try await reading(container) { context in
            try context.fetchObjectIDs(FetchRequest(Practitioner.self, predicate: Practitioner.id == id, limit: 1)).first?.rowID
        }
    }

    /// Runs `body` in a context of its own that Ctrl-C interrupts: a statement waiting on a lock another session
    /// holds is cancelled on the server, and the command ends with 130, as the command's own work would.
    private static func reading<T: Sendable>(_ container: PersistentContainer,
                                             _ body: @Sendable (isolated ObjectContext) throws -> T) async throws -> T {
        let context = container.newBackgroundContext(name: "practitioners")
        let interrupt = InterruptHandler { context.interrupt() }
        defer { withExtendedLifetime(interrupt) {} }
        do {
            return try await context.perform(body)
        } catch where interrupt.wasInterrupted {
            Output.printError("stopped by Ctrl-C: the store's practitioners were not read")
            throw ExitCode(130)
        }
    }
}
