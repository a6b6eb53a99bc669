/// Where a statistic module comes from: Stillpoint itself, or the tool that added it.
///
/// ```swift
/// ModuleOrigin.builtIn.description                  // "built in"
/// ModuleOrigin.addedBy("care-stillpoint").description   // "from care-stillpoint"
/// ```
public enum ModuleOrigin: Sendable, Hashable, CustomStringConvertible {
    /// One of the modules under `Plugins/` that ship with Stillpoint.
    case builtIn
    /// A module a tool built on Stillpoint added, named as that tool names itself.
    case addedBy(String)

    public var description: String {
        switch self {
        case .builtIn: "built in"
        case .addedBy(let name): "from \(name)"
        }
    }
}
