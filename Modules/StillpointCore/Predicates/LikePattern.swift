/// An NSPredicate `LIKE` pattern: `*` matches any run of characters, `?` one character, `\*` and `\?` themselves.
///
/// It translates to an SQLite `GLOB` pattern and also matches in memory, character by code point, as GLOB does.
package struct LikePattern: Sendable, Hashable {
    package enum Element: Sendable, Hashable {
        case anyRun
        case anyOne
        case literal(Unicode.Scalar)
    }

    package var elements: [Element]

    package init(_ pattern: String) {
        var elements: [Element] = []
        var escaping = false
        for scalar in pattern.unicodeScalars {
            if escaping {
                elements.append(.literal(scalar))
                escaping = false
                continue
            }
            switch scalar {
            case "\\": escaping = true
            case "*": elements.append(.anyRun)
            case "?": elements.append(.anyOne)
            default: elements.append(.literal(scalar))
            }
        }
        if escaping { elements.append(.literal("\\")) }
        self.elements = elements
    }

    /// The same pattern for SQLite's GLOB, where `*`, `?` and `[` are special and have to be bracketed to be literal.
    package var glob: String {
        var result = ""
        for element in elements {
            switch element {
            case .anyRun: result += "*"
            case .anyOne: result += "?"
            case .literal(let scalar) where scalar == "*" || scalar == "?" || scalar == "[":
                result += "[" + String(scalar) + "]"
            case .literal(let scalar): result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether the whole of `text` matches, with backtracking only to the last `*`.
    func matches(_ text: [Unicode.Scalar]) -> Bool {
        var textIndex = 0, patternIndex = 0
        var starPattern: Int?, starText = 0
        while textIndex < text.count {
            if patternIndex < elements.count {
                switch elements[patternIndex] {
                case .anyRun:
                    starPattern = patternIndex
                    starText = textIndex
                    patternIndex += 1
                    continue
                case .anyOne:
                    textIndex += 1
                    patternIndex += 1
                    continue
                case .literal(let scalar) where scalar == text[textIndex]:
                    textIndex += 1
                    patternIndex += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let star = starPattern else { return false }
            patternIndex = star + 1
            starText += 1
            textIndex = starText
        }
        return elements[patternIndex...].allSatisfy { $0 == .anyRun }
    }
}
