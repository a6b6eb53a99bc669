/// The store modules' openers, by scheme: how a container opens a location of a scheme the core does not know.
///
/// ```swift
/// StoreLocation.register(scheme: "mydb") { location, schema, access in try MyStore(location, schema, access) }
/// let driver = try location.openDriver(schema: schema, access: .readOnly)
/// ```
extension StoreLocation {
    /// Opens a store module's location for `schema` with `access`.
    package typealias Opener = @Sendable (StoreLocation, Schema, StoreAccess) throws -> any StoreDriver

    private static let openers = LockedState<[String: Opener]>([:])

    /// Makes `opener` the way to open locations of `scheme` (the last registration of a scheme wins).
    package static func register(scheme: String, opener: @escaping Opener) {
        openers.withLock { $0[scheme.lowercased()] = opener }
    }

    /// Opens this location through its scheme's registered opener.
    ///
    /// - Throws: ``StoreError/storeModuleMissing(path:module:)`` when no store module registered the scheme.
    package func openDriver(schema: Schema, access: StoreAccess) throws -> any StoreDriver {
        guard let opener = Self.openers.withLock({ $0[scheme.lowercased()] }) else {
            throw StoreError.storeModuleMissing(path: displayPath, module: "the store module of '\(scheme)' locations")
        }
        return try opener(self, schema, access)
    }
}
