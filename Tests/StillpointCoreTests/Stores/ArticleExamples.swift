import Foundation
import StillpointTestSupport

/// The examples of a DocC article that a test file does not compile: each `swift` block of the article must
/// appear in the file line for line (indentation and blank lines aside).
enum ArticleExamples {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The article's blocks, and those of them that `sourceFile` does not hold.
    static func blocks(of article: String, missingFrom sourceFile: String) throws -> (all: [String], missing: [String]) {
        let text = try String(contentsOf: repository.appendingPathComponent("Modules/StillpointCore/StillpointCore.docc/\(article)"), encoding: .utf8)
        let source = DocumentationExamples.lines(try String(contentsOf: URL(fileURLWithPath: sourceFile), encoding: .utf8))
        let blocks = DocumentationExamples.blocks(of: text)
        let missing = blocks.filter { !DocumentationExamples.isCompiled($0, in: [source]) }
        return (blocks, missing)
    }
}
