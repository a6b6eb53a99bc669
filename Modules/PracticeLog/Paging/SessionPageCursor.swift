import Foundation

/// Where a page of sessions (``SessionPage``) goes on from: the last session shown, by its start and its row id,
/// so that sessions with the same start are neither skipped nor shown twice. Its text is opaque to clients:
/// `1709620200.25_42`, the start's seconds since 1970 exactly as stored, then the row id.
///
/// ```swift
/// let page = try await SessionPage.fetch(for: "alice", in: container)
/// let next = page.next.map(String.init(describing:))        // "1709620200.25_42", for ?before=
/// let older = try await SessionPage.fetch(for: "alice", before: SessionPageCursor(next ?? ""), in: container)
/// ```
public struct SessionPageCursor: Sendable, Hashable, CustomStringConvertible {
    /// The start of the last session shown.
    public var start: Date
    /// Its row id: among sessions of one start, the page goes on with the higher ids.
    public var id: Int64

    public init(start: Date, id: Int64) {
        self.start = start
        self.id = id
    }

    /// The cursor `text` names, or `nil` when it is not one (a finite number of seconds, `_`, a row id).
    public init?(_ text: String) {
        guard text.utf8.count <= 64, let separator = text.lastIndex(of: "_"),
              let seconds = Double(text[..<separator]), seconds.isFinite,
              let id = Int64(text[text.index(after: separator)...])
        else { return nil }
        self.init(start: Date(timeIntervalSince1970: seconds), id: id)
    }

    /// Swift's shortest text that reads back as the same `Double`, so the start compares equal to the stored one.
    public var description: String { "\(start.timeIntervalSince1970)_\(id)" }
}
