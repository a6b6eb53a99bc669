/// `swift package` failed or printed something this test cannot read.
struct ManifestReadError: Error, CustomStringConvertible {
    let directory: String
    let problem: String
    var description: String { "swift package in \(directory) failed: \(problem)" }
}
