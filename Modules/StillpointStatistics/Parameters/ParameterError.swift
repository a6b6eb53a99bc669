import Foundation

/// A parameter of the wrong type or value, with the statistic, the parameter and its place in the manifest.
public struct ParameterError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    public var statistic: String
    public var parameter: String
    public var location: SourceLocation?
    public var message: String

    public init(statistic: String, parameter: String, location: SourceLocation?, message: String) {
        self.statistic = statistic
        self.parameter = parameter
        self.location = location
        self.message = message
    }

    public var description: String {
        (location.map { "\($0): " } ?? "") + "parameter '\(parameter)' of '\(statistic)': \(message)"
    }

    public var errorDescription: String? { description }
}
