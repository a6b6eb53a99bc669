import StillpointStatistics
/// One entry of a manifest's `statistics:` list: a statistic's id, the name it reports under, and its parameters.
///
/// ```yaml
/// statistics:
///   - id: current_streak
///   - id: current_streak
///     as: current_streak_10m
///     parameters: {minimum_duration: 10m}
/// ```
///
/// ```swift
/// ManifestEntry(id: "current_streak", name: "current_streak_10m", parameters: ["minimum_duration": "10m"])
/// ```
public struct ManifestEntry: Sendable, Hashable {
    /// The statistic's id in the catalog.
    public var id: String
    /// The entry's `as` name, else its id: unique in a manifest, and the key of its result.
    public var name: String
    public var parameters: [String: ParameterValue]
    /// Where the entry starts in the manifest.
    public var location: SourceLocation?
    /// Where its `id` is written.
    public var idLocation: SourceLocation?
    /// Where each parameter's name is written, for errors about the name itself (an unknown parameter).
    public var parameterKeyLocations: [String: SourceLocation]

    public init(id: String, name: String? = nil, parameters: [String: ParameterValue] = [:],
                location: SourceLocation? = nil, idLocation: SourceLocation? = nil,
                parameterKeyLocations: [String: SourceLocation] = [:]) {
        self.id = id
        self.name = name ?? id
        self.parameters = parameters
        self.location = location
        self.idLocation = idLocation ?? location
        self.parameterKeyLocations = parameterKeyLocations
    }
}
