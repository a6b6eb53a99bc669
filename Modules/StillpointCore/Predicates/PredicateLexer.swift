/// One token of a predicate format, with its position for error messages.
struct PredicateToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// An identifier or a keyword; the parser tells them apart, ignoring case.
        case word(String)
        /// `#name`: an identifier even when spelled like a keyword.
        case escapedWord(String)
        case number(AttributeValue)
        case string(String)
        /// `%@`
        case valuePlaceholder
        /// `%K`
        case keyPlaceholder
        /// `$name`: the variable of a `SUBQUERY`, named without its `$`.
        case variable(String)
        /// An operator or punctuation: `==`, `(`, `{`, `,`, `[`, …
        case symbol(String)
        case end
    }

    var kind: Kind
    /// The 0-based character offset of the token in the format.
    var offset: Int
    /// The token as written.
    var text: String

    /// How error messages quote the token.
    var quoted: String {
        if case .end = kind { return "the end of the predicate" }
        return "'\(text)'"
    }

    /// The keyword this token spells, uppercased, if it is an unescaped word.
    var keyword: String? {
        if case .word(let word) = kind { return word.uppercased() }
        return nil
    }

    func isSymbol(_ symbol: String) -> Bool { kind == .symbol(symbol) }

    /// Whether the token can end an operand, so that a `-` after it subtracts.
    var endsOperand: Bool {
        switch kind {
        case .word(let word):
            // A keyword (AND, NOT, IN, …) is followed by an operand, so `AND -2` holds the number -2.
            let upper = word.uppercased()
            return !PredicateLexer.reservedWords.contains(upper) || ["NIL", "NULL", "TRUE", "FALSE", "YES", "NO"].contains(upper)
        case .escapedWord, .number, .string, .valuePlaceholder, .keyPlaceholder, .variable: return true
        case .symbol(let symbol): return symbol == ")" || symbol == "}"
        case .end: return false
        }
    }
}

/// Splits a predicate format into tokens.
struct PredicateLexer {
    /// Words that aren't keys unless escaped with `#`, compared uppercased.
    static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES",
        "NIL", "NULL", "TRUE", "FALSE", "YES", "NO", "TRUEPREDICATE", "FALSEPREDICATE",
        "ANY", "ALL", "SOME", "NONE", "SUBQUERY", "FUNCTION", "CAST", "SELF",
    ]

    static let comparisonSymbols: Set<String> = ["==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>"]
    private static let operators = comparisonSymbols.union(["&&", "||", "!"])
    /// Arithmetic operators; each is a token of its own, so `a*-b` is `a`, `*`, `-`, `b`.
    static let arithmeticSymbols: Set<String> = ["+", "-", "*", "/", "**"]
    // Characters that form operators; a run of them must spell one known operator.
    private static let operatorCharacters: Set<Character> = ["=", "<", ">", "!", "&", "|", "~", "^", "+", "-", "*", "/"]
    private static let punctuation: Set<Character> = ["(", ")", "{", "}", ",", "[", "]", "."]

    let format: String
    private let characters: [Character]
    private var position = 0

    private init(format: String) {
        self.format = format
        self.characters = Array(format)
    }

    static func tokenize(_ format: String) throws(FetchPredicateError) -> [PredicateToken] {
        var lexer = PredicateLexer(format: format)
        var tokens: [PredicateToken] = []
        while true {
            let token = try lexer.nextToken(afterOperand: tokens.last?.endsOperand ?? false)
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func error(_ message: String, at offset: Int) -> FetchPredicateError {
        FetchPredicateError(.syntax, message, format: format, offset: offset)
    }

    private func character(at index: Int) -> Character? {
        index < characters.count ? characters[index] : nil
    }

    private func text(from start: Int) -> String {
        String(characters[start..<position])
    }

    /// After an operand, `-5` is a subtraction (`duration -5`), not the number -5.
    private mutating func nextToken(afterOperand: Bool) throws(FetchPredicateError) -> PredicateToken {
        while let character = character(at: position), character.isWhitespace { position += 1 }
        let start = position
        guard let character = character(at: position) else {
            return PredicateToken(kind: .end, offset: start, text: "")
        }
        if character.isLetter || character == "_" {
            var word = readIdentifier()
            // A selector-style function name: `length:`, `modulus:by:`.
            while self.character(at: position) == ":" {
                position += 1
                word += ":"
                if let next = self.character(at: position), next.isLetter { word += readIdentifier() }
            }
            return PredicateToken(kind: .word(word), offset: start, text: word)
        }
        if character == "@", let next = self.character(at: position + 1), next.isLetter {
            // A collection operator of a key path: `sessions.@count`, `sessions.@sum.duration`.
            position += 1
            let word = "@" + readIdentifier()
            return PredicateToken(kind: .word(word), offset: start, text: word)
        }
        if character == "#" {
            position += 1
            guard let next = self.character(at: position), next.isLetter || next == "_" else {
                throw error("expected an attribute name after '#'", at: position)
            }
            let word = readIdentifier()
            return PredicateToken(kind: .escapedWord(word), offset: start, text: "#" + word)
        }
        if character.isASCII, character.isNumber || (((character == "-" && !afterOperand) || character == ".") && startsNumber(at: position + 1)) {
            return try readNumber()
        }
        if character == "'" || character == "\"" {
            return try readString(quote: character)
        }
        if character == "%" {
            position += 1
            let next = self.character(at: position)
            if next == "@" || next == "K" {
                position += 1
                return PredicateToken(kind: next == "@" ? .valuePlaceholder : .keyPlaceholder, offset: start, text: text(from: start))
            }
            let written = next.map { "%\($0)" } ?? "%"
            throw error("unknown placeholder '\(written)'; use %@ for values and %K for keys", at: start)
        }
        if character == "$" {
            position += 1
            guard let next = self.character(at: position), next.isLetter || next == "_" else {
                throw error("expected a variable name after '$', like $s in SUBQUERY(sessions, $s, $s.duration > 600)", at: start)
            }
            let name = readIdentifier()
            return PredicateToken(kind: .variable(name), offset: start, text: "$" + name)
        }
        if Self.punctuation.contains(character) {
            position += 1
            return PredicateToken(kind: .symbol(String(character)), offset: start, text: String(character))
        }
        if Self.operatorCharacters.contains(character) {
            return try readOperator()
        }
        throw error("unexpected character '\(character)'", at: start)
    }

    private func startsNumber(at index: Int) -> Bool {
        guard let character = character(at: index) else { return false }
        return character.isASCII && character.isNumber
    }

    private mutating func readIdentifier() -> String {
        let start = position
        while let character = character(at: position), character.isLetter || character.isNumber || character == "_" {
            position += 1
        }
        return text(from: start)
    }

    private mutating func readDigits() {
        while let character = character(at: position), character.isASCII, character.isNumber { position += 1 }
    }

    private mutating func readNumber() throws(FetchPredicateError) -> PredicateToken {
        let start = position
        if character(at: position) == "-" { position += 1 }
        if character(at: position) == "0", let radix = Self.radixes[character(at: position + 1) ?? " "] {
            return try readRadixNumber(radix, from: start)
        }
        readDigits()
        var isInteger = true
        if character(at: position) == ".", startsNumber(at: position + 1) || position > start {
            isInteger = false
            position += 1
            readDigits()
        }
        if let e = character(at: position), e == "e" || e == "E" {
            let afterE = character(at: position + 1)
            let digitsAt = (afterE == "+" || afterE == "-") ? position + 2 : position + 1
            if startsNumber(at: digitsAt) {
                isInteger = false
                position = digitsAt
                readDigits()
            }
        }
        if let next = character(at: position), next.isLetter || next == "_" || next == "." {
            while let character = character(at: position), character.isLetter || character.isNumber || "_.".contains(character) {
                position += 1
            }
            throw error("invalid number '\(text(from: start))'", at: start)
        }
        let written = text(from: start)
        let value: AttributeValue
        if isInteger, let integer = Int64(written) {
            value = .integer(integer)
        } else if let double = Double(written) {
            // Double("1e400") is infinity, which no literal spells: a description could not be read back.
            guard double.isFinite else {
                throw error("the number '\(written)' is too large; numbers go up to about 1.8e308", at: start)
            }
            value = .double(double)
        } else {
            throw error("invalid number '\(written)'", at: start)
        }
        return PredicateToken(kind: .number(value), offset: start, text: written)
    }

    /// The prefixes of integers in another base: `0x3E8`, `0o17`, `0b101`.
    private static let radixes: [Character: Int] = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2]

    /// An integer written in base `radix` after its `0x`, `0o` or `0b` (and an optional `-` before it).
    private mutating func readRadixNumber(_ radix: Int, from start: Int) throws(FetchPredicateError) -> PredicateToken {
        position += 2
        let digitsStart = position
        while let character = character(at: position), character.isLetter || character.isNumber || character == "_" {
            position += 1
        }
        let written = text(from: start)
        let digits = String(characters[digitsStart..<position])
        let isNegative = written.hasPrefix("-")
        guard !digits.isEmpty, let value = Int64(isNegative ? "-" + digits : digits, radix: radix) else {
            let what = digits.isEmpty || digits.contains(where: { !$0.isHexDigit || Int(String($0), radix: radix) == nil })
                ? "invalid number '\(written)'" : "the number '\(written)' is too large; integers go up to 9223372036854775807"
            throw error(what, at: start)
        }
        return PredicateToken(kind: .number(.integer(value)), offset: start, text: written)
    }

    private mutating func readString(quote: Character) throws(FetchPredicateError) -> PredicateToken {
        let start = position
        position += 1
        var value = ""
        while let character = character(at: position) {
            position += 1
            if character == quote {
                return PredicateToken(kind: .string(value), offset: start, text: text(from: start))
            }
            guard !character.unicodeScalars.contains("\0") else { throw nulInString(at: position - 1) }
            guard character == "\\" else {
                value.append(character)
                continue
            }
            guard let escaped = self.character(at: position) else { break }
            position += 1
            guard escaped.unicodeScalars.first != "0", !escaped.unicodeScalars.contains("\0") else {
                throw nulInString(at: position - 2)
            }
            // A combining mark after an escape letter joins it into one character ("\r" + U+0611): the escape
            // is its first scalar, and the marks follow what the escape stands for.
            let marks = String(String.UnicodeScalarView(escaped.unicodeScalars.dropFirst()))
            switch escaped.unicodeScalars.first {
            case "n": value.append("\n" + marks)
            case "t": value.append("\t" + marks)
            case "r": value.append("\r" + marks)
            case "\\", "'", "\"": value.append(escaped)
            default:
                // Keep other escapes as written, so LIKE patterns can say \* and \? for a literal * and ?.
                value.append("\\")
                value.append(escaped)
            }
        }
        throw error("unterminated string", at: start)
    }

    /// SQLite text as the store binds it ends at a NUL, so SQL would compare a shorter string than memory does.
    private func nulInString(at offset: Int) -> FetchPredicateError {
        error("a string can't hold a NUL character (the store ends text at one); remove it", at: offset)
    }

    private mutating func readOperator() throws(FetchPredicateError) -> PredicateToken {
        let start = position
        if let first = character(at: position), "+-*/".contains(first) {
            position += (first == "*" && character(at: position + 1) == "*") ? 2 : 1
            let written = text(from: start)
            return PredicateToken(kind: .symbol(written), offset: start, text: written)
        }
        while let character = character(at: position), Self.operatorCharacters.contains(character) {
            // Arithmetic after a comparison is a token of its own: "x==-5", "x>-y".
            if position > start, "+-*/".contains(character) { break }
            position += 1
        }
        let written = text(from: start)
        if Self.operators.contains(written) {
            return PredicateToken(kind: .symbol(written), offset: start, text: written)
        }
        if written.allSatisfy({ $0 == "!" }) {
            // "!!x": one negation at a time.
            position = start + 1
            return PredicateToken(kind: .symbol("!"), offset: start, text: "!")
        }
        throw error("unknown operator '\(written)'", at: start)
    }
}
