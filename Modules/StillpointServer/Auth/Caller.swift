/// Who a request comes from, by its bearer token.
///
/// ```swift
/// switch try await state.access.caller(of: request) { case .administrator: ...; case .practitioner(let id): ... }
/// ```
public enum Caller: Sendable, Equatable {
    /// The administrator's token: manages practitioners, and may read every practitioner's routes.
    case administrator
    /// A practitioner's own token: that practitioner's routes only.
    case practitioner(String)
}
