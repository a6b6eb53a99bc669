/// The default manifest, built into the tool so that a report needs no file at all.
///
/// It is `Config/default.yaml` itself: the module's `Setup/default.yaml` links to it, and the build embeds
/// its bytes in the code, so there is one file to edit and no resource to install beside the tool.
///
/// ```swift
/// let manifest = try Manifest(yaml: DefaultManifest.yaml, file: "the default manifest")
/// ```
public enum DefaultManifest {
    /// The text of `Config/default.yaml`.
    public static let yaml = String(decoding: PackageResources.default_yaml, as: UTF8.self)
}
