/// The import's input was asked for a second time: a bug, since an operation reads its source once.
struct RecordReaderTakenError: Error, CustomStringConvertible {
    var description: String { "the import's input was already read" }
}
