/// A renderer that cannot be added to ``ReportRenderers``.
public enum ReportRendererError: Error, Equatable, CustomStringConvertible {
    /// Another renderer already writes a format of this name.
    case duplicateFormat(String)

    public var description: String {
        switch self {
        case .duplicateFormat(let name):
            "two renderers write the report format '\(name)'; give the added renderer's format another name"
        }
    }
}
