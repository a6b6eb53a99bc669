/// An object's places in its context's pending sets, `-1` where it is not in one.
struct PendingSlots {
    private var slots = (-1, -1, -1)

    subscript(kind: PendingObjects.Kind) -> Int {
        get {
            switch kind {
            case .inserted: return slots.0
            case .updated: return slots.1
            case .deleted: return slots.2
            }
        }
        set {
            switch kind {
            case .inserted: slots.0 = newValue
            case .updated: slots.1 = newValue
            case .deleted: slots.2 = newValue
            }
        }
    }
}
