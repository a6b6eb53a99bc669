import StillpointManifest

extension LiveReport {
    /// The body as served: a stale JSON report gets `"stale": true` as its document's first member (the field a
    /// client reads; the server adds a header too); any other is ``body`` unchanged, byte for byte.
    ///
    /// ```swift
    /// response.body = live.servedBody   // {"stale": true, "as_of": ...} while the store is away
    /// ```
    public var servedBody: String {
        guard isStale, format == .json, body.hasPrefix("{\n") else { return body }
        return "{\n  \"stale\": true," + body.dropFirst(1)
    }

    /// The report as one event of a `text/event-stream`: `id:` its generation (what `Last-Event-ID` resumes
    /// after), a `data:` line for each line of ``servedBody``, and the blank line that ends the event.
    ///
    /// ```swift
    /// for await update in stream { try await writer.write(update.serverSentEvent) }
    /// ```
    public var serverSentEvent: String {
        var event = "id: \(generation)\n"
        for line in servedBody.split(separator: "\n", omittingEmptySubsequences: false).dropLast(servedBody.hasSuffix("\n") ? 1 : 0) {
            event += "data: \(line)\n"
        }
        return event + "\n"
    }
}
