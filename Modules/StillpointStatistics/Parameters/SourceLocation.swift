/// A place in a manifest: file, line and column (1-based), for error messages.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String?
    public var line: Int
    public var column: Int

    public init(file: String?, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `path:line:column`, the form editors and compilers use.
    public var description: String { "\(file ?? "<manifest>"):\(line):\(column)" }
}
