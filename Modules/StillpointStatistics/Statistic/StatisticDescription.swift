/// What a statistic is, for people: its name, a summary, its parameters and worked examples.
public struct StatisticDescription: Sendable {
    public var name: String
    public var summary: String
    public var parameters: [ParameterDescription]
    /// Examples that double as tests: the conformance test runs every one of them.
    public var examples: [StatisticExample]
    /// How reports show the value: ``StatisticPresentation/value`` unless the value is one the reporters chart.
    public var presentation: StatisticPresentation

    public init(name: String, summary: String, parameters: [ParameterDescription] = [], examples: [StatisticExample] = [],
                presentation: StatisticPresentation = .value) {
        self.name = name
        self.summary = summary
        self.parameters = parameters
        self.examples = examples
        self.presentation = presentation
    }
}
