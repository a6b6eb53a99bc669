import Foundation

/// The examples of a DocC catalogue that a test target does not compile: each `swift` block of each article must
/// appear, line for line (indentation and blank lines aside), in a Swift file of the target, where the compiler
/// checks it and a test runs it (docs/documentation-examples.md). A block pasted into a comment does not count:
/// its lines start with `//` there.
///
/// ```swift
/// let found = try DocumentationExamples(catalog: repository.appendingPathComponent("Modules/StillpointSQLite/StillpointSQLite.docc"),
///                                       testTarget: repository.appendingPathComponent("Tests/StillpointSQLiteTests"))
/// #expect(found.missing.isEmpty, "\(found.missing.joined(separator: "\n"))")
/// ```
public struct DocumentationExamples: Sendable {
    /// How many `swift` blocks the catalogue's articles hold.
    public let blocks: Int
    /// The blocks no Swift file of the test target holds, each after its article's file name.
    public let missing: [String]

    /// Reads every article (`.md`) of `catalog` and every Swift file under `testTarget`.
    public init(catalog: URL, testTarget: URL) throws {
        let articles = try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "md" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        let sources = try (FileManager.default.enumerator(at: testTarget, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? [])
            .map { Self.lines(try String(contentsOf: $0, encoding: .utf8)) }
        var blocks = 0
        var missing: [String] = []
        for article in articles {
            for block in Self.blocks(of: try String(contentsOf: article, encoding: .utf8)) {
                blocks += 1
                if !Self.isCompiled(block, in: sources) { missing.append("\(article.lastPathComponent):\n\(block)") }
            }
        }
        self.blocks = blocks
        self.missing = missing
    }

    /// The `swift` blocks of an article's text.
    public static func blocks(of article: String) -> [String] {
        article.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }

    /// Whether `block`'s lines appear in a row in one of `sources` (each a file's ``lines(_:)``).
    public static func isCompiled(_ block: String, in sources: [[String]]) -> Bool {
        let wanted = lines(block)
        return sources.contains { source in
            source.indices.contains { start in
                start + wanted.count <= source.count && Array(source[start..<(start + wanted.count)]) == wanted
            }
        }
    }

    /// The lines of `text` without their indentation, blank lines left out.
    public static func lines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
