import Foundation

/// The examples of a DocC article that a test file does not compile: each `swift` block of the article must
/// appear in the file line for line (indentation and blank lines aside).
enum ArticleExamples {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The article's blocks, and those of them that `sourceFile` does not hold.
    static func blocks(of article: String, missingFrom sourceFile: String) throws -> (all: [String], missing: [String]) {
        let text = try String(contentsOf: repository.appendingPathComponent("Modules/StillpointCore/StillpointCore.docc/\(article)"), encoding: .utf8)
        let source = lines(try String(contentsOf: URL(fileURLWithPath: sourceFile), encoding: .utf8))
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        let missing = blocks.filter { block in
            let wanted = lines(block)
            return !source.indices.contains { start in
                start + wanted.count <= source.count && Array(source[start..<(start + wanted.count)]) == wanted
            }
        }
        return (blocks, missing)
    }

    /// The lines of `text` without their indentation, blank lines left out.
    static func lines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
