import StillpointCore

extension FetchScope {
    /// The scope of one practitioner, by the practitioner's row id: a context or request with it reads that
    /// practitioner's sessions, import runs and row only. By row id, so that the store reads it as the
    /// relationship column that leads every index of the scoped tables.
    ///
    /// ```swift
    /// context.setScope(try .practitioner(aliceRowID))
    /// ```
    public static func practitioner(_ rowID: Int64) throws -> FetchScope {
        try FetchScope(Practitioner.self, try FetchPredicate("_id == %@", rowID))
    }
}
