import Foundation

/// A Swift source file with its comments and string literals blanked out, so that rules match code only.
///
/// Blanking keeps every line and column where it was: a rule's match reports the real position.
/// `// swiftlint:disable:this RULE: why` on a line exempts that line from `RULE`, as SwiftLint reads it.
struct SwiftSource {
    let path: String
    /// The file as written, line by line.
    let lines: [String]
    /// The same lines with comments and string literals replaced by spaces.
    let code: [String]
    /// The same lines with comments (documentation included) replaced by spaces, string literals kept: what the
    /// program says as well as what it does.
    let codeAndStrings: [String]

    init(path: String, text: String) {
        self.path = path
        lines = text.components(separatedBy: "\n")
        code = Self.blankCommentsAndStrings(text).components(separatedBy: "\n")
        codeAndStrings = Self.blankCommentsAndStrings(text, keepingStrings: true).components(separatedBy: "\n")
    }

    /// Whether line `index` (0-based) carries a SwiftLint exemption for `rule`.
    func exempts(line index: Int, from rule: String) -> Bool {
        guard let marker = lines[index].range(of: "swiftlint:disable:this") else { return false }
        // The rules come first, then (after a colon) why the line is safe.
        let rules = lines[index][marker.upperBound...].prefix { $0 != ":" }
        return rules.split(separator: " ").contains { $0 == rule }
    }

    private static func blankCommentsAndStrings(_ text: String, keepingStrings: Bool = false) -> String {
        var output: [Character] = []
        let characters = Array(text)
        var index = 0
        func peek(_ offset: Int) -> Character? {
            index + offset < characters.count ? characters[index + offset] : nil
        }
        func blank(_ character: Character) { output.append(character == "\n" ? "\n" : " ") }
        var inString = false
        func blankOrKeep(_ character: Character) { inString && keepingStrings ? output.append(character) : blank(character) }
        while index < characters.count {
            let character = characters[index]
            if character == "/" && peek(1) == "/" {
                while index < characters.count && characters[index] != "\n" { blank(characters[index]); index += 1 }
            } else if character == "/" && peek(1) == "*" {
                var depth = 0
                repeat {
                    if characters[index] == "/" && peek(1) == "*" { depth += 1; blank("/"); blank("*"); index += 2; continue }
                    if characters[index] == "*" && peek(1) == "/" { depth -= 1; blank("*"); blank("/"); index += 2; continue }
                    blank(characters[index]); index += 1
                } while depth > 0 && index < characters.count
            } else if character == "\"" {
                let multiline = peek(1) == "\"" && peek(2) == "\""
                let delimiter = multiline ? 3 : 1
                inString = true
                defer { inString = false }
                for _ in 0..<delimiter { blankOrKeep("\""); index += 1 }
                while index < characters.count {
                    if characters[index] == "\\" { blankOrKeep("\\"); index += 1; if index < characters.count { blankOrKeep(characters[index]); index += 1 }; continue }
                    if characters[index] == "\"" && (!multiline || (peek(1) == "\"" && peek(2) == "\"")) {
                        for _ in 0..<delimiter { blankOrKeep("\""); index += 1 }
                        break
                    }
                    if !multiline && characters[index] == "\n" { break }
                    blankOrKeep(characters[index]); index += 1
                }
            } else {
                output.append(character)
                index += 1
            }
        }
        return String(output)
    }
}
