import Foundation

/// Parses a predicate format and its arguments into a ``PredicateNode``.
///
/// Precedence, loosest first: OR, AND, NOT, comparison.
///
/// Parentheses and NOT nest at most ``FetchPredicate/maximumNesting`` deep.
struct PredicateParser {
    private let format: String
    private let tokens: [PredicateToken]
    private var index = 0
    private let arguments: [PredicateArgument]
    private var argumentIndex = 0
    /// How many parentheses, NOTs and SUBQUERYs enclose the current token.
    private var nesting = 0
    /// The variables of the SUBQUERYs that enclose the current token, innermost last. Inside one, keys are
    /// read through its variable (`$s.duration`), and only the innermost variable can be read.
    private var variables: [String] = []
    /// Whether aggregate functions (`sum(duration)`, `count(*)`) may be called: in a fetch request's expressions
    /// (``FetchExpression``), never in a row's predicate.
    private var allowsAggregates = false

    private init(format: String, tokens: [PredicateToken], arguments: [PredicateArgument]) {
        self.format = format
        self.tokens = tokens
        self.arguments = arguments
    }

    static func parse(_ format: String, arguments: [PredicateArgument]) throws(FetchPredicateError) -> PredicateNode {
        var parser = PredicateParser(format: format, tokens: try PredicateLexer.tokenize(format), arguments: arguments)
        if parser.current.kind == .end {
            throw parser.error("expected a predicate", at: parser.current)
        }
        let node = try parser.parseOr()
        if parser.current.isSymbol(")") {
            throw parser.error("unexpected ')' without a matching '('", at: parser.current)
        }
        if parser.current.kind != .end {
            throw parser.error("expected AND, OR or the end of the predicate, found \(parser.current.quoted)", at: parser.current)
        }
        if parser.argumentIndex < arguments.count {
            let used = parser.argumentIndex
            throw FetchPredicateError(.argument, "\(Self.count(arguments.count, "argument")) given, but the format has only \(Self.count(used, "placeholder"))")
        }
        return node
    }

    /// A fetch request's expression (``FetchExpression``): arithmetic and functions of keys, values and aggregates
    /// of attributes, each aggregate read as the key ``FetchExpression/aggregateKey(_:of:)`` names.
    static func parseExpression(_ format: String, arguments: [PredicateArgument]) throws(FetchPredicateError) -> PredicateOperand {
        var parser = PredicateParser(format: format, tokens: try PredicateLexer.tokenize(format), arguments: arguments)
        parser.allowsAggregates = true
        let operand = try parser.parseExpression(missing: "expected an expression, like duration / 60 or sum(duration)")
        if parser.current.kind != .end {
            throw parser.error("expected an operator or the end of the expression, found \(parser.current.quoted)", at: parser.current)
        }
        if parser.argumentIndex < arguments.count {
            throw FetchPredicateError(.argument, "\(Self.count(arguments.count, "argument")) given, but the expression has only \(Self.count(parser.argumentIndex, "placeholder"))")
        }
        return operand
    }

    // MARK: Helpers

    private var current: PredicateToken { tokens[index] }

    private var previous: PredicateToken? { index > 0 ? tokens[index - 1] : nil }

    private mutating func advance() -> PredicateToken {
        let token = tokens[index]
        if token.kind != .end { index += 1 }
        return token
    }

    private func error(_ message: String, at token: PredicateToken, kind: FetchPredicateError.Kind = .syntax) -> FetchPredicateError {
        FetchPredicateError(kind, message, format: format, offset: token.offset)
    }

    private func error(_ message: String, at offset: Int, kind: FetchPredicateError.Kind = .syntax) -> FetchPredicateError {
        FetchPredicateError(kind, message, format: format, offset: offset)
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// Consumes the current token if it is one of the keywords or symbols.
    private mutating func accept(keyword: String, symbol: String) -> Bool {
        if current.keyword == keyword || current.isSymbol(symbol) {
            _ = advance()
            return true
        }
        return false
    }

    // MARK: Logical operators

    private mutating func parseOr() throws(FetchPredicateError) -> PredicateNode {
        var operands = [try parseAnd()]
        while accept(keyword: "OR", symbol: "||") {
            operands.append(try parseAnd())
        }
        return .anyOf(operands)
    }

    private mutating func parseAnd() throws(FetchPredicateError) -> PredicateNode {
        var operands = [try parseNot()]
        while accept(keyword: "AND", symbol: "&&") {
            operands.append(try parseNot())
        }
        return .allOf(operands)
    }

    private mutating func parseNot() throws(FetchPredicateError) -> PredicateNode {
        let token = current
        if accept(keyword: "NOT", symbol: "!") {
            try enterNesting(at: token)
            defer { nesting -= 1 }
            return .negation(try parseNot())
        }
        return try parsePrimary()
    }

    /// Counts one more level of parentheses or NOT, refusing more than ``FetchPredicate/maximumNesting``.
    private mutating func enterNesting(at token: PredicateToken) throws(FetchPredicateError) {
        guard nesting < FetchPredicate.maximumNesting else {
            throw error("parentheses and NOT nest more than \(FetchPredicate.maximumNesting) levels deep here; write the predicate with fewer levels, e.g. a OR b OR c without parentheses around each part", at: token)
        }
        nesting += 1
    }

    private mutating func parsePrimary() throws(FetchPredicateError) -> PredicateNode {
        if current.isSymbol("(") {
            // `(duration + 60) * 2 > x` opens with an arithmetic operand, not a parenthesized predicate: when the
            // predicate reading fails, read a comparison, and report whichever got further.
            let start = (index, argumentIndex)
            do {
                return try parseParenthesized()
            } catch let predicateError {
                let parenthesized = (index, argumentIndex)
                (index, argumentIndex) = start
                do {
                    return .comparison(try parseComparison())
                } catch let comparisonError {
                    if (comparisonError.offset ?? 0) > (predicateError.offset ?? 0) { throw comparisonError }
                    (index, argumentIndex) = parenthesized
                    throw predicateError
                }
            }
        }
        switch current.keyword {
        case "TRUEPREDICATE": _ = advance(); return .constant(true)
        case "FALSEPREDICATE": _ = advance(); return .constant(false)
        case "ANY", "SOME": return try parseQuantified(.any)
        case "ALL": return try parseQuantified(.all)
        case "NONE": return try parseQuantified(.none)
        default: return .comparison(try parseComparison())
        }
    }

    /// `( predicate )`.
    private mutating func parseParenthesized() throws(FetchPredicateError) -> PredicateNode {
        let open = advance()
        try enterNesting(at: open)
        defer { nesting -= 1 }
        let node = try parseOr()
        guard current.isSymbol(")") else {
            let column = open.offset + 1
            if current.kind == .end {
                throw error("missing ')' to close the '(' at column \(column)", at: current)
            }
            throw error("expected AND, OR or ')' to close the '(' at column \(column), found \(current.quoted)", at: current)
        }
        _ = advance()
        return node
    }

    /// `ANY relationship.key op value`: the comparison holds for some, every or none of the related objects.
    private mutating func parseQuantified(_ quantifier: PredicateQuantifier) throws(FetchPredicateError) -> PredicateNode {
        let quantifierToken = advance()
        let keyToken = current
        var comparison = try parseComparison()
        guard case .key(let path) = comparison.lhs, let dot = path.firstIndex(of: ".") else {
            throw error("\(quantifierToken.text) needs a key path through a relationship on its left, like '\(quantifierToken.text) sessions.duration > 600'", at: keyToken)
        }
        comparison.lhs = .key(String(path[path.index(after: dot)...]))
        return .quantified(quantifier, relationship: String(path[..<dot]), .comparison(comparison))
    }

    // MARK: Comparisons

    private mutating func parseComparison() throws(FetchPredicateError) -> PredicateComparison {
        let lhsToken = current
        let missing = missingComparisonMessage()
        let lhs = try parseExpression(missing: missing)
        let opToken = current
        let op = try parseOperator(after: tokens[index - 1])
        let options = try parseOptions()
        let rhsToken = current
        let rhs = try parseExpression(missing: "expected a value after '\(opToken.text)\(options.modifierSuffix)'")
        let comparison = PredicateComparison(lhs: lhs, op: op, options: options, rhs: rhs)
        try validate(comparison, lhsToken: lhsToken, opToken: opToken, rhsToken: rhsToken)
        return comparison
    }

    private func missingComparisonMessage() -> String {
        if case .symbol(let symbol) = current.kind, PredicateLexer.comparisonSymbols.contains(symbol) {
            return "expected a key or value before \(current.quoted)"
        }
        guard let previous else { return "expected a comparison" }
        return "expected a comparison after \(previous.quoted)"
    }

    private mutating func parseOperator(after operand: PredicateToken) throws(FetchPredicateError) -> PredicateOperator {
        let token = current
        let op: PredicateOperator?
        switch token.kind {
        case .symbol(let symbol):
            switch symbol {
            case "==", "=": op = .equal
            case "!=", "<>": op = .notEqual
            case "<": op = .less
            case "<=", "=<": op = .lessOrEqual
            case ">": op = .greater
            case ">=", "=>": op = .greaterOrEqual
            default: op = nil
            }
        case .word(let word):
            switch word.uppercased() {
            case "IN": op = .in
            case "BETWEEN": op = .between
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "CONTAINS": op = .contains
            case "LIKE": op = .like
            case "MATCHES": op = .matches
            case "SUBQUERY", "FUNCTION":
                throw error("'\(word)' isn't supported", at: token)
            default: op = nil
            }
        default:
            op = nil
        }
        guard let op else {
            let found = token.kind == .end ? "" : ", found \(token.quoted)"
            throw error("expected a comparison operator (==, !=, <, >, IN, BETWEEN, BEGINSWITH, CONTAINS, LIKE, …) after \(operand.quoted)\(found)", at: token)
        }
        _ = advance()
        return op
    }

    /// Parses `[c]`, `[d]` or `[cd]` after an operator.
    private mutating func parseOptions() throws(FetchPredicateError) -> PredicateComparisonOptions {
        guard current.isSymbol("[") else { return [] }
        let open = advance()
        var options: PredicateComparisonOptions = []
        if case .word(let letters) = current.kind {
            for letter in letters.lowercased() {
                switch letter {
                case "c": options.insert(.caseInsensitive)
                case "d": options.insert(.diacriticInsensitive)
                default: throw error("unknown comparison option '\(letter)'; use [c], [d] or [cd]", at: current)
                }
            }
            _ = advance()
        } else {
            throw error("expected comparison options c, d or cd after '['", at: current)
        }
        guard current.isSymbol("]") else {
            throw error("missing ']' to close the '[' at column \(open.offset + 1)", at: current)
        }
        _ = advance()
        return options
    }

    // MARK: Operands

    private mutating func parseOperand(missing message: String) throws(FetchPredicateError) -> PredicateOperand {
        let token = current
        switch token.kind {
        case .word(let word):
            switch word.uppercased() {
            case "NIL", "NULL": _ = advance(); return .value(.null)
            case "TRUE", "YES": _ = advance(); return .value(.bool(true))
            case "FALSE", "NO": _ = advance(); return .value(.bool(false))
            case "CAST": return .value(try parseCast())
            case "SUBQUERY": return try parseSubquery()
            case "FUNCTION": return try parseFunctionKeyword()
            case "SELF": return try parseSelf()
            case _ where tokens[index + 1].isSymbol("(") && !PredicateLexer.reservedWords.contains(word.uppercased()):
                return try parseFunctionCall()
            case let upper where PredicateLexer.reservedWords.contains(upper):
                throw error(message, at: token)
            default:
                try refuseBareKey(at: token)
                _ = advance()
                return .key(try parsePath(from: word))
            }
        case .escapedWord(let word):
            try refuseBareKey(at: token)
            _ = advance()
            return .key(try parsePath(from: word))
        case .variable(let name):
            // Inside a SUBQUERY its variable reads the related object; any other `$NAME` is substituted later.
            if name == variables.last || tokens[index + 1].isSymbol(".") { return .key(try parseVariablePath(name)) }
            _ = advance()
            return .variable(name)
        case .number(let value):
            _ = advance()
            return .value(value)
        case .string(let text):
            _ = advance()
            return .value(.string(text))
        case .valuePlaceholder:
            _ = advance()
            switch try takeArgument(for: token) {
            case .value(let value): return .value(value)
            case .array(let values): return .list(values)
            case .key(let name):
                throw error("%@ got the key '\(name)'; use %K for keys", at: token, kind: .argument)
            }
        case .keyPlaceholder:
            _ = advance()
            switch try takeArgument(for: token) {
            case .key(let name), .value(.string(let name)):
                guard let variable = variables.last else { return .key(name) }
                // Inside a SUBQUERY, %K names a key through its variable, as a format would write it.
                let prefix = "$\(variable)."
                guard name.hasPrefix(prefix), name.count > prefix.count else {
                    throw error("inside SUBQUERY, %K needs a key read through its variable, like '\(prefix)duration', got '\(name)'", at: token, kind: .argument)
                }
                return .key(String(name.dropFirst(prefix.count)))
            case let other:
                throw error("%K needs an attribute name, got \(other)", at: token, kind: .argument)
            }
        case .symbol("{"):
            return .list(try parseList())
        case .symbol("("):
            // A parenthesized operand: `(duration + 60) * 2`.
            let open = advance()
            try enterNesting(at: open)
            defer { nesting -= 1 }
            let operand = try parseExpression(missing: "expected a value after '('")
            guard current.isSymbol(")") else {
                throw error("expected ')' to close the '(' at column \(open.offset + 1), found \(current.quoted)", at: current)
            }
            _ = advance()
            return operand
        default:
            throw error(message, at: token)
        }
    }

    // MARK: Arithmetic and functions

    /// An operand with arithmetic: `+ -` looser than `* /`, looser than `**` (which groups to the right), looser
    /// than unary minus. Each operator counts as a level of ``FetchPredicate/maximumNesting``, since the
    /// evaluator and the compiler recurse through it.
    private mutating func parseExpression(missing message: String) throws(FetchPredicateError) -> PredicateOperand {
        try parseArithmetic(precedence: 1, missing: message)
    }

    private mutating func parseArithmetic(precedence: Int, missing message: String) throws(FetchPredicateError) -> PredicateOperand {
        guard precedence <= 3 else { return try parseUnary(missing: message) }
        let lhsToken = current
        var lhs = try parseArithmetic(precedence: precedence + 1, missing: message)
        var entered = 0
        defer { nesting -= entered }
        while case .symbol(let symbol) = current.kind, let op = PredicateArithmeticOperator(rawValue: symbol), op.precedence == precedence {
            let opToken = advance()
            try enterNesting(at: opToken)
            entered += 1
            let rhsToken = current
            // `**` groups to the right: 2 ** 3 ** 2 is 2 ** (3 ** 2).
            let rhs = try parseArithmetic(precedence: op == .power ? precedence : precedence + 1,
                                          missing: "expected a value after '\(opToken.text)'")
            try checkArithmeticOperand(lhs, at: lhsToken, of: opToken.text)
            try checkArithmeticOperand(rhs, at: rhsToken, of: opToken.text)
            lhs = .arithmetic(op, lhs, rhs)
        }
        return lhs
    }

    /// `-duration`: unary minus; a number written after `-` is read by the lexer as a negative number instead.
    private mutating func parseUnary(missing message: String) throws(FetchPredicateError) -> PredicateOperand {
        guard current.isSymbol("-") else { return try parseOperand(missing: message) }
        let minus = advance()
        try enterNesting(at: minus)
        defer { nesting -= 1 }
        let operandToken = current
        let operand = try parseUnary(missing: "expected a value after '-'")
        try checkArithmeticOperand(operand, at: operandToken, of: "-")
        return .function(.negate, [operand])
    }

    /// Arithmetic works on numbers: keys, numbers and the results of functions, never lists, text or dates.
    private func checkArithmeticOperand(_ operand: PredicateOperand, at token: PredicateToken, of what: String) throws(FetchPredicateError) {
        switch operand {
        case .list:
            throw error("'\(what)' needs a number, not a list", at: token, kind: .invalidComparison)
        case .subqueryCount:
            throw error("'\(what)' can't compute with SUBQUERY(…).@count; compare the count by itself", at: token, kind: .invalidComparison)
        case .value(let value):
            switch value {
            case .null, .integer, .double, .bool: break
            default: throw error("'\(what)' computes with numbers, got \(value)", at: token, kind: .invalidComparison)
            }
        case .function(let function, _) where [.lowercase, .uppercase, .now].contains(function):
            throw error("'\(what)' computes with numbers, but \(function.rawValue)(…) isn't one", at: token, kind: .invalidComparison)
        case .key, .arithmetic, .function, .variable:
            break
        }
    }

    /// `abs(duration)`, `modulus:by:(duration, 60)`, `now()`.
    private mutating func parseFunctionCall() throws(FetchPredicateError) -> PredicateOperand {
        let nameToken = advance()
        if allowsAggregates, let aggregate = FetchExpression.aggregate(spelling: nameToken.text) {
            return try parseAggregate(aggregate, at: nameToken)
        }
        guard let function = PredicateFunction(spelling: nameToken.text) else {
            throw error("unknown function '\(nameToken.text)'; the functions are \(PredicateFunction.spellings)", at: nameToken)
        }
        let open = advance()
        try enterNesting(at: open)
        defer { nesting -= 1 }
        var operands: [PredicateOperand] = []
        var operandTokens: [PredicateToken] = []
        if !current.isSymbol(")") {
            while true {
                operandTokens.append(current)
                operands.append(try parseExpression(missing: "expected a value in \(nameToken.text)(…)"))
                guard current.isSymbol(",") else { break }
                _ = advance()
            }
        }
        guard current.isSymbol(")") else {
            throw error("expected ',' or ')' to close the '(' of \(nameToken.text) at column \(open.offset + 1), found \(current.quoted)", at: current)
        }
        _ = advance()
        return try makeFunction(function, operands, operandTokens, at: nameToken)
    }

    /// `sum(duration)`, `count(*)`: an aggregate of one attribute of the fetched entity, as a key.
    private mutating func parseAggregate(_ aggregate: AggregateFunction, at nameToken: PredicateToken) throws(FetchPredicateError) -> PredicateOperand {
        let open = advance()
        var attribute: String?
        if aggregate == .count, current.isSymbol("*") {
            _ = advance()
        } else {
            let attributeToken = current
            guard case .key(let name) = try parseExpression(missing: "expected an attribute in \(nameToken.text)(…)"), !name.contains(".") else {
                throw error("\(nameToken.text)(…) takes one attribute of the fetched entity, like \(nameToken.text)(duration)", at: attributeToken, kind: .argument)
            }
            attribute = name
        }
        guard current.isSymbol(")") else {
            throw error("expected ')' to close the '(' of \(nameToken.text) at column \(open.offset + 1), found \(current.quoted)", at: current)
        }
        _ = advance()
        return .key(FetchExpression.aggregateKey(aggregate, of: attribute))
    }

    /// `FUNCTION(operand, "abs")`, `FUNCTION(duration, "modulus:by:", 60)`: the operand is the first argument.
    private mutating func parseFunctionKeyword() throws(FetchPredicateError) -> PredicateOperand {
        let keyword = advance()
        guard current.isSymbol("(") else { throw error("expected '(' after FUNCTION, like FUNCTION(duration, \"abs\")", at: current) }
        let open = advance()
        try enterNesting(at: open)
        defer { nesting -= 1 }
        var operandTokens = [current]
        var operands = [try parseExpression(missing: "expected a value in FUNCTION(value, \"name\")")]
        guard current.isSymbol(",") else { throw error("expected ',' and a function name in FUNCTION(value, \"name\")", at: current) }
        _ = advance()
        let nameToken = advance()
        guard case .string(let name) = nameToken.kind else {
            throw error("expected a function name in quotes, like FUNCTION(duration, \"abs\")", at: nameToken)
        }
        guard let function = PredicateFunction(spelling: name), function != .now else {
            throw error("unknown function '\(name)'; FUNCTION calls one of \(PredicateFunction.spellings.replacingOccurrences(of: ", now", with: ""))", at: nameToken)
        }
        while current.isSymbol(",") {
            _ = advance()
            operandTokens.append(current)
            operands.append(try parseExpression(missing: "expected a value after ','"))
        }
        guard current.isSymbol(")") else {
            throw error("expected ')' to close the FUNCTION at column \(open.offset + 1), found \(current.quoted)", at: current)
        }
        _ = advance()
        return try makeFunction(function, operands, operandTokens, at: keyword)
    }

    private func makeFunction(_ function: PredicateFunction, _ operands: [PredicateOperand], _ tokens: [PredicateToken],
                              at token: PredicateToken) throws(FetchPredicateError) -> PredicateOperand {
        guard operands.count == function.arity else {
            throw error("\(function.rawValue) takes \(Self.count(function.arity, "value")), got \(operands.count)", at: token, kind: .argument)
        }
        let takesText = function == .length || function == .lowercase || function == .uppercase
        for (operand, operandToken) in zip(operands, tokens) {
            if takesText {
                switch operand {
                case .value(.string), .value(.null), .key: continue
                case .function(.lowercase, _), .function(.uppercase, _): continue
                default: throw error("\(function.rawValue) works on text, got \(operand)", at: operandToken, kind: .invalidComparison)
                }
            }
            try checkArithmeticOperand(operand, at: operandToken, of: function.rawValue)
        }
        return .function(function, operands)
    }

    /// `SELF.duration` is the key `duration`; `SELF` alone would compare the object itself.
    private mutating func parseSelf() throws(FetchPredicateError) -> PredicateOperand {
        let token = advance()
        guard current.isSymbol(".") else {
            throw error("SELF stands for the object itself, which can't be compared; compare one of its keys, like SELF.duration", at: token)
        }
        try refuseBareKey(at: token)
        let dot = advance()
        switch current.kind {
        case .word(let word), .escapedWord(let word):
            _ = advance()
            return .key(try parsePath(from: word))
        default:
            throw error("expected a name after 'SELF.'", at: dot)
        }
    }

    /// Inside a SUBQUERY, keys are read through its variable: a key on its own is a mistake.
    private func refuseBareKey(at token: PredicateToken) throws(FetchPredicateError) {
        guard let variable = variables.last else { return }
        throw error("inside SUBQUERY, keys are read through its variable: write '$\(variable).\(token.text.drop { $0 == "#" })'", at: token)
    }

    /// `$s.key.path` inside the SUBQUERY whose variable is `$s`: the key path of the related object.
    private mutating func parseVariablePath(_ name: String) throws(FetchPredicateError) -> String {
        let token = current
        guard let variable = variables.last else {
            throw error("the variable '$\(name)' is only defined inside SUBQUERY(collection, $\(name), predicate); pass values with %@", at: token)
        }
        guard name == variable else {
            let outer = variables.dropLast().contains(name) ? " (an enclosing SUBQUERY's variable can't be read in a nested one)" : ""
            throw error("unknown variable '$\(name)'; this SUBQUERY's variable is '$\(variable)'\(outer)", at: token)
        }
        _ = advance()
        guard current.isSymbol(".") else {
            throw error("compare a key of '$\(name)', like $\(name).duration, not the object itself", at: token)
        }
        let dot = advance()
        switch current.kind {
        case .word(let word), .escapedWord(let word):
            _ = advance()
            return try parsePath(from: word)
        default:
            throw error("expected a name after '.' in '$\(name).'", at: dot)
        }
    }

    /// `SUBQUERY(relationship, $variable, predicate).@count`: how many related objects match the predicate.
    private mutating func parseSubquery() throws(FetchPredicateError) -> PredicateOperand {
        let subqueryToken = advance()
        try enterNesting(at: subqueryToken)
        defer { nesting -= 1 }
        let example = "like SUBQUERY(sessions, $s, $s.duration > 600).@count > 2"
        guard current.isSymbol("(") else {
            throw error("expected '(' after SUBQUERY, \(example)", at: current)
        }
        let open = advance()
        let collectionToken = current
        let collection = try parseOperand(missing: "SUBQUERY needs a to-many relationship first, \(example)")
        guard case .key(let relationship) = collection else {
            throw error("SUBQUERY needs a to-many relationship first, \(example)", at: collectionToken)
        }
        guard !relationship.contains(".") else {
            throw error("SUBQUERY's collection is one relationship of the object, like 'sessions', not the key path '\(relationship)'", at: collectionToken)
        }
        guard current.isSymbol(",") else {
            throw error("expected ',' after SUBQUERY's collection, found \(current.quoted)", at: current)
        }
        _ = advance()
        guard case .variable(let variable) = current.kind else {
            throw error("expected a variable like $s after SUBQUERY's collection, found \(current.quoted)", at: current)
        }
        _ = advance()
        guard current.isSymbol(",") else {
            throw error("expected ',' after the variable '$\(variable)', found \(current.quoted)", at: current)
        }
        _ = advance()
        variables.append(variable)
        let inner = try parseOr()
        variables.removeLast()
        guard current.isSymbol(")") else {
            let column = open.offset + 1
            if current.kind == .end {
                throw error("missing ')' to close the SUBQUERY at column \(column)", at: current)
            }
            throw error("expected AND, OR or ')' to close the SUBQUERY at column \(column), found \(current.quoted)", at: current)
        }
        _ = advance()
        guard current.isSymbol(".") else {
            throw error("SUBQUERY(…) is a collection: compare how many objects match with .@count, \(example)", at: current)
        }
        let dot = advance()
        guard case .word(let word) = current.kind, word.hasPrefix("@") else {
            throw error("expected @count after 'SUBQUERY(…).'", at: dot)
        }
        guard word == CollectionOperator.count.rawValue else {
            throw error("only @count reads a SUBQUERY; '\(word)' isn't supported after it", at: current)
        }
        _ = advance()
        return .subqueryCount(relationship: relationship, variable: variable, inner)
    }

    /// The rest of a key path after its first name: `.name` parts, and collection operators (`.@count`).
    private mutating func parsePath(from first: String) throws(FetchPredicateError) -> String {
        var path = first
        while current.isSymbol(".") {
            let dot = advance()
            switch current.kind {
            case .word(let word), .escapedWord(let word):
                _ = advance()
                path += "." + word
            default:
                throw error("expected a name after '.' in the key path '\(path).'", at: dot)
            }
        }
        return path
    }

    private mutating func takeArgument(for token: PredicateToken) throws(FetchPredicateError) -> PredicateArgument {
        guard argumentIndex < arguments.count else {
            throw error("missing argument for \(token.text): \(Self.count(arguments.count, "argument")) given", at: token, kind: .argument)
        }
        defer { argumentIndex += 1 }
        return arguments[argumentIndex]
    }

    /// Parses `{value, value, …}`; elements are literals or `%@` values.
    private mutating func parseList() throws(FetchPredicateError) -> [AttributeValue] {
        let open = advance()
        var values: [AttributeValue] = []
        if current.isSymbol("}") {
            _ = advance()
            return values
        }
        while true {
            let elementToken = current
            switch try parseOperand(missing: "expected a value in the list") {
            case .value(let value): values.append(value)
            case .key(let name): throw error("lists hold values, not keys like '\(name)'", at: elementToken)
            case .subqueryCount: throw error("lists hold values, not SUBQUERY", at: elementToken)
            case .arithmetic, .function: throw error("lists hold values, not computed ones", at: elementToken)
            case .variable(let name): throw error("lists hold values; give the whole list as $\(name) instead", at: elementToken)
            case .list: throw error("lists can't be nested", at: elementToken)
            }
            if current.isSymbol(",") {
                _ = advance()
            } else if current.isSymbol("}") {
                _ = advance()
                return values
            } else if current.kind == .end {
                throw error("missing '}' to close the '{' at column \(open.offset + 1)", at: current)
            } else {
                throw error("expected ',' or '}' in the list, found \(current.quoted)", at: current)
            }
        }
    }

    /// Parses NSPredicate's `CAST(value, "type")` for dates, UUIDs and data, which have no literal of their own.
    private mutating func parseCast() throws(FetchPredicateError) -> AttributeValue {
        let castToken = advance()
        guard current.isSymbol("(") else { throw error("expected '(' after CAST", at: current) }
        _ = advance()
        let valueToken = advance()
        guard current.isSymbol(",") else { throw error("expected ',' in CAST(value, \"type\")", at: current) }
        _ = advance()
        let typeToken = advance()
        guard current.isSymbol(")") else { throw error("expected ')' to close CAST", at: current) }
        _ = advance()
        switch (valueToken.kind, typeToken.kind) {
        case (.number(let number), .string("NSDate")):
            if let seconds = number.numericValue { return .date(Date(timeIntervalSinceReferenceDate: seconds)) }
        case (.string(let text), .string("UUID")), (.string(let text), .string("NSUUID")):
            if let uuid = UUID(uuidString: text) { return .uuid(uuid) }
            throw error("'\(text)' isn't a UUID", at: valueToken)
        case (.string(let text), .string("NSData")):
            if let data = Data(base64Encoded: text) { return .binary(data) }
            throw error("'\(text)' isn't base64-encoded data", at: valueToken)
        default:
            break
        }
        throw error("unsupported CAST: use CAST(seconds, \"NSDate\"), CAST(\"uuid\", \"UUID\") or CAST(\"base64\", \"NSData\")", at: castToken)
    }

    // MARK: Validation

    /// Rejects comparisons whose shape can't be right whatever the attribute types are.
    private func validate(_ comparison: PredicateComparison, lhsToken: PredicateToken, opToken: PredicateToken, rhsToken: PredicateToken) throws(FetchPredicateError) {
        let op = comparison.op
        let name = "'\(opToken.text)'"
        if case .list = comparison.lhs {
            throw error("a list can't be on the left of \(name)", at: lhsToken, kind: .invalidComparison)
        }
        switch (op, comparison.rhs) {
        case (.in, .list), (.between, .list), (.in, .variable), (.between, .variable):
            break
        case (.in, _), (.between, _):
            throw error("\(op.symbol) needs a list on the right, like {1, 2} or an array argument", at: rhsToken, kind: .argument)
        case (_, .list):
            throw error("\(name) needs a single value on the right, got a list", at: rhsToken, kind: .argument)
        default:
            break
        }
        if op == .between, case .list(let bounds) = comparison.rhs, bounds.count != 2 {
            throw error("BETWEEN needs exactly two values {low, high}, got \(bounds.count)", at: rhsToken, kind: .argument)
        }
        if op == .like || op == .matches, case .key(let key) = comparison.rhs {
            throw error("\(op.symbol) needs a pattern value on the right, not the key '\(key)'", at: rhsToken, kind: .invalidComparison)
        }
        if op == .matches, case .value(.string(let pattern)) = comparison.rhs, let problem = RegularExpressionMatch.problem(with: pattern) {
            throw error(problem, at: rhsToken, kind: .invalidComparison)
        }
        try validateCount(comparison, lhsToken: lhsToken, rhsToken: rhsToken)
        // Text operators and [c]/[d] only mean something for text values.
        let needsText = op.isTextOperator || !comparison.options.isEmpty
        guard needsText else { return }
        let what = op.isTextOperator ? op.symbol : "\(name) with \(comparison.options.modifierSuffix)"
        for (operand, token) in [(comparison.lhs, lhsToken), (comparison.rhs, rhsToken)] {
            let values: [AttributeValue]
            switch operand {
            case .value(let value): values = [value]
            case .list(let list): values = list
            case .key, .arithmetic, .function, .variable: values = []
            case .subqueryCount:
                // A count is a number: text operators, [c]/[d] and text values can't apply to it.
                throw error("\(what) compares text, but SUBQUERY(…).@count is a number", at: token, kind: .invalidComparison)
            }
            for value in values where !PredicateEvaluator.isTextual(value) && !value.isNull {
                throw error("\(what) compares text, got \(value)", at: token, kind: .invalidComparison)
            }
        }
    }

    /// A SUBQUERY's count is an integer: values compared with it must be numbers (or nil), as the store requires.
    private func validateCount(_ comparison: PredicateComparison, lhsToken: PredicateToken, rhsToken: PredicateToken) throws(FetchPredicateError) {
        let sides = [(comparison.lhs, lhsToken), (comparison.rhs, rhsToken)]
        for (index, (side, _)) in sides.enumerated() {
            guard case .subqueryCount = side else { continue }
            let (other, otherToken) = sides[1 - index]
            let values: [AttributeValue]
            switch other {
            case .value(let value): values = [value]
            case .list(let list): values = list
            case .key, .subqueryCount, .arithmetic, .function, .variable: values = []
            }
            for value in values where !value.isNull && value.numericValue == nil {
                throw error("SUBQUERY(…).@count is a number; it can't be compared with \(value)", at: otherToken, kind: .invalidComparison)
            }
        }
    }
}
