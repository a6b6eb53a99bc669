/// A child process that could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let description: String
}
