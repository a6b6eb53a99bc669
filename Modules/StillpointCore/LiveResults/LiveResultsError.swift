import Foundation

/// Why live results cannot follow a fetch request.
public enum LiveResultsError: Error, Sendable, Equatable, LocalizedError {
    /// Live results follow the store's changes as a context on the store takes them in; a child context's
    /// changes go to its parent instead.
    case childContext(String)
    /// A window that starts past the first rows moves with every change before it; use `limit` alone.
    case offset
    /// Sections are runs of the order, so the section key must be the first sort key.
    case sectionKeyNotFirstSortKey(sectionKey: String)

    public var errorDescription: String? {
        switch self {
        case .childContext(let name):
            return "live results need a context on the store, and '\(name)' is a child context; use its parent or the view context"
        case .offset:
            return "live results cannot follow a request with an offset; use a limit alone"
        case .sectionKeyNotFirstSortKey(let key):
            return "the section key '\(key)' must be the request's first sort key; add .ascending(\"\(key)\") or .descending(\"\(key)\") first"
        }
    }
}
