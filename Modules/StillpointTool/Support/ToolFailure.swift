/// A failure the tool reports as one line on standard error, with the exit status that fits it.
///
/// The message says what went wrong, where, and what to do:
///
/// ```swift
/// throw ToolFailure("--output \(path) is the store being read; write the report to another file",
///                   status: .cannotCreate)
/// ```
struct ToolFailure: Error, CustomStringConvertible, Sendable {
    let description: String
    let status: ExitStatus

    init(_ description: String, status: ExitStatus) {
        self.description = description
        self.status = status
    }
}
