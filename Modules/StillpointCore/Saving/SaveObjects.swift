/// The objects a save transaction writes, in the order of its rows: what applying its outcome brings up to date.
///
/// Kept beside the transaction (which is Sendable data and cannot hold objects), so that applying the outcome
/// reaches each object directly instead of looking it up by ID.
struct SaveObjects {
    /// The inserted set's slots, shared rather than copied: the inserts are its non-`nil` entries, in order.
    var inserts: [ManagedObject?] = []
    var updates: [ManagedObject] = []
    var deletes: [ManagedObject] = []
}
