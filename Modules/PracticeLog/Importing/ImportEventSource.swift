/// The format-specific half of a ``SessionRecordReader``.
protocol ImportEventSource: AnyObject {
    /// The next event, or `nil` at the end of the input.
    func next() throws -> ImportEvent?
    /// The last line read, for error messages.
    var line: Int { get }
    /// Largest number of input bytes held at once.
    var peakBufferedBytes: Int { get }
    /// Rows left out because they are not practice, by their type; most formats have none.
    var notPractice: [String: Int] { get }
}

extension ImportEventSource {
    var notPractice: [String: Int] { [:] }
}
