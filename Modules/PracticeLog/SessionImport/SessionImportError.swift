/// Why a ``SessionImport`` did not start: nothing was written to any store.
public enum SessionImportError: Error, Equatable {
    /// `strict`: `count` rows would be skipped; the first of them (at most ``listedIssues``).
    case wouldSkipRows(count: Int, first: [ImportIssue])
    /// Standard input could not be kept in the temporary file at `path`.
    case cannotKeepStandardInput(path: String, reason: String)
    /// Standard input went on past ``SessionImport/maximumStandardInput`` bytes.
    case standardInputTooLarge
    /// A streamed input (``SessionImport/open(streaming:limit:)``) went on past `limit` bytes; nothing was kept.
    case bodyTooLarge(limit: Int)

    /// How many of the rows a `strict` check would skip are listed.
    public static let listedIssues = 20
}
