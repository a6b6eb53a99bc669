/// What ``XMLTokenizer`` yields.
enum XMLToken: Equatable {
    /// A start tag; its attributes are read on demand through the tokenizer until the next token.
    case start(name: String, line: Int, selfClosing: Bool)
    case end(name: String, line: Int)
    /// Markup the tokenizer cannot read; nothing after it is trustworthy.
    case malformed(reason: String, line: Int)
}

/// A pull tokenizer for the subset of XML that exports use: elements, attributes (with entity and
/// character references), self-closing tags, the prolog, an inline DTD, comments, CDATA and processing
/// instructions. Text content is skipped. It holds one block of input plus the current tag, however large
/// the document.
///
/// Foundation's `XMLParser(stream:)` does feed libxml2 in chunks, but it pushes through a delegate and
/// cannot be paused, so pulling from it would need a thread per file; it also recovers from malformed input
/// without saying where.
///
/// Every piece it reads is bounded by ``maxTagBytes`` (``ImportLimits/maxRecordBytes``, 1 MiB): a tag with
/// its attributes, the text between two tags, a comment, a CDATA section, a processing instruction, the
/// document type declaration, and white space before the root. A longer one is a `.malformed` token naming
/// the limit, so an endless input (`/dev/zero` behind a `<`) ends instead of being read forever.
///
/// ```swift
/// let tokenizer = XMLTokenizer(cursor: ByteCursor(source: try FileChunkSource(url: url)))
/// while let token = try tokenizer.next() { if case .malformed = token { break } }
/// ```
final class XMLTokenizer {
    /// The longest piece read, ``ImportLimits/maxRecordBytes``; a longer one is malformed.
    static let maxTagBytes = ImportLimits.maxRecordBytes

    private enum Byte {
        static let lessThan = UInt8(ascii: "<"), greaterThan = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
        static let question = UInt8(ascii: "?"), bang = UInt8(ascii: "!"), equals = UInt8(ascii: "=")
        static let doubleQuote = UInt8(ascii: "\""), singleQuote = UInt8(ascii: "'")
        static let lineFeed = UInt8(ascii: "\n"), ampersand = UInt8(ascii: "&"), semicolon = UInt8(ascii: ";")
        static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
        }
    }

    private let cursor: ByteCursor
    /// The line of the next unread byte.
    private(set) var line = 1
    /// The current start tag between `<` and `>`, without a trailing `/`.
    private var tag: [UInt8] = []
    private var nameEnd = 0
    private var attributes: [(name: Range<Int>, value: Range<Int>)] = []
    private var attributesParsed = false

    var peakBufferedBytes: Int { cursor.peakBufferedBytes + tag.capacity }

    init(cursor: ByteCursor) {
        self.cursor = cursor
    }

    // MARK: - Tokens

    /// Skips a byte order mark and leading white space; returns whether the input then starts with `<`.
    /// More than ``maxTagBytes`` of white space counts as not starting with markup.
    func startsWithMarkup() throws -> Bool {
        if try cursor.hasPrefix([0xEF, 0xBB, 0xBF]) { cursor.index += 3 }
        var skipped = 0
        while try cursor.ensure(), skipped <= Self.maxTagBytes {
            let byte = cursor.bytes[cursor.index]
            guard Byte.isSpace(byte) else { return byte == Byte.lessThan }
            if byte == Byte.lineFeed { line += 1 }
            cursor.index += 1
            skipped += 1
        }
        return false
    }

    /// How a skip over text or markup ended.
    private enum Skipped {
        case done, endOfInput, tooLong
    }

    /// The message for a piece longer than ``maxTagBytes``.
    private static func tooLong(_ what: String) -> String {
        "\(what) is longer than \(ImportLimits.maxRecordSize), the limit for one piece of an export"
    }

    /// The next start or end tag, or `nil` at the end of the input.
    func next() throws -> XMLToken? {
        while true {
            let textLine = line
            switch try skipText() {
            case .endOfInput: return nil
            case .tooLong: return .malformed(reason: Self.tooLong("the text from this line on"), line: textLine)
            case .done: break
            }
            let tokenLine = line
            guard try cursor.ensure(2) else {
                cursor.index += 1
                return .malformed(reason: "the file ends inside a tag", line: tokenLine)
            }
            switch cursor.bytes[cursor.index + 1] {
            case Byte.question:
                cursor.index += 2
                switch try skip(past: Array("?>".utf8)) {
                case .done: break
                case .endOfInput: return .malformed(reason: "the file ends inside a processing instruction", line: tokenLine)
                case .tooLong: return .malformed(reason: Self.tooLong("a processing instruction"), line: tokenLine)
                }
            case Byte.bang:
                let what: String
                let result: Skipped
                if try cursor.hasPrefix(Array("<!--".utf8)) {
                    cursor.index += 4
                    what = "a comment"
                    result = try skip(past: Array("-->".utf8))
                } else if try cursor.hasPrefix(Array("<![CDATA[".utf8)) {
                    cursor.index += 9
                    what = "a CDATA section"
                    result = try skip(past: Array("]]>".utf8))
                } else {
                    cursor.index += 2
                    what = "the document type declaration"
                    result = try skipDeclaration()
                }
                switch result {
                case .done: break
                case .endOfInput: return .malformed(reason: "the file ends inside \(what)", line: tokenLine)
                case .tooLong: return .malformed(reason: Self.tooLong(what), line: tokenLine)
                }
            case Byte.slash:
                cursor.index += 2
                if let problem = try readTag() { return .malformed(reason: problem, line: tokenLine) }
                let name = String(decoding: tag.trimmingSpaces(), as: UTF8.self)
                guard !name.isEmpty else {
                    return .malformed(reason: "an end tag has no element name", line: tokenLine)
                }
                return .end(name: name, line: tokenLine)
            default:
                cursor.index += 1
                if let problem = try readTag() { return .malformed(reason: problem, line: tokenLine) }
                var selfClosing = false
                while let last = tag.last, Byte.isSpace(last) { tag.removeLast() }
                if tag.last == Byte.slash {
                    selfClosing = true
                    tag.removeLast()
                }
                nameEnd = tag.firstIndex { Byte.isSpace($0) || $0 == Byte.slash } ?? tag.count
                attributes.removeAll(keepingCapacity: true)
                attributesParsed = false
                guard nameEnd > 0 else {
                    return .malformed(reason: "'<' is not followed by an element name", line: tokenLine)
                }
                return .start(name: String(decoding: tag[..<nameEnd], as: UTF8.self), line: tokenLine,
                              selfClosing: selfClosing)
            }
        }
    }

    // MARK: - Attributes of the current start tag

    /// The value of attribute `name` of the last start tag, with references decoded.
    func attribute(_ name: String) -> String? {
        guard let range = valueRange(of: name) else { return nil }
        return Self.decode(tag[range])
    }

    /// Whether attribute `name` of the last start tag is exactly `value`; compares bytes, creating no string.
    func attribute(_ name: String, is value: String) -> Bool {
        guard let range = valueRange(of: name) else { return false }
        return tag[range].elementsEqual(value.utf8)
    }

    private func valueRange(of name: String) -> Range<Int>? {
        if !attributesParsed { parseAttributes() }
        return attributes.first { tag[$0.name].elementsEqual(name.utf8) }?.value
    }

    /// Splits `name="value"` pairs; stops at the first malformed one, keeping those before it.
    private func parseAttributes() {
        attributesParsed = true
        var index = nameEnd
        let end = tag.count
        while true {
            while index < end, Byte.isSpace(tag[index]) { index += 1 }
            let nameStart = index
            while index < end, !Byte.isSpace(tag[index]), tag[index] != Byte.equals { index += 1 }
            let nameRange = nameStart..<index
            while index < end, Byte.isSpace(tag[index]) { index += 1 }
            guard !nameRange.isEmpty, index < end, tag[index] == Byte.equals else { return }
            index += 1
            while index < end, Byte.isSpace(tag[index]) { index += 1 }
            guard index < end, tag[index] == Byte.doubleQuote || tag[index] == Byte.singleQuote else { return }
            let quote = tag[index]
            index += 1
            let valueStart = index
            while index < end, tag[index] != quote { index += 1 }
            guard index < end else { return }
            attributes.append((nameRange, valueStart..<index))
            index += 1
        }
    }

    /// Decodes `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and `&#…;` references; leaves unknown ones as written.
    static func decode(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(Byte.ampersand) else { return String(decoding: raw, as: UTF8.self) }
        var output: [UInt8] = []
        output.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == Byte.ampersand,
                  let semicolon = raw[index...].prefix(12).firstIndex(of: Byte.semicolon)
            else {
                output.append(byte)
                index += 1
                continue
            }
            let name = String(decoding: raw[(index + 1)..<semicolon], as: UTF8.self)
            if let replacement = reference(name) {
                output.append(contentsOf: replacement.utf8)
                index = semicolon + 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func reference(_ name: String) -> String? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let code: UInt32?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                code = UInt32(name.dropFirst(2), radix: 16)  // swiftlint:disable:this integer_conversion: failable, nil on bad text
            } else if name.hasPrefix("#") {
                code = UInt32(name.dropFirst(), radix: 10)  // swiftlint:disable:this integer_conversion: failable, nil on bad text
            } else {
                code = nil
            }
            return code.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
    }

    // MARK: - Scanning

    /// Skips text up to the next `<`, counting lines.
    private func skipText() throws -> Skipped {
        var skipped = 0
        while try cursor.ensure() {
            let bytes = cursor.bytes
            var index = cursor.index
            let end = bytes.count
            while index < end {
                let byte = bytes[index]
                if byte == Byte.lessThan {
                    cursor.index = index
                    return .done
                }
                if byte == Byte.lineFeed { line += 1 }
                index += 1
            }
            skipped += index - cursor.index
            cursor.index = index
            if skipped > Self.maxTagBytes { return .tooLong }
        }
        return .endOfInput
    }

    /// Reads up to the `>` that closes a tag (ignoring `>` inside quoted values) into `tag`.
    /// Returns what is wrong, or `nil` when the tag was read.
    private func readTag() throws -> String? {
        tag.removeAll(keepingCapacity: true)
        var quote: UInt8 = 0
        while try cursor.ensure() {
            let bytes = cursor.bytes
            var index = cursor.index
            let start = index
            let end = bytes.count
            var closed = false
            while index < end {
                let byte = bytes[index]
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == Byte.doubleQuote || byte == Byte.singleQuote {
                    quote = byte
                } else if byte == Byte.greaterThan {
                    closed = true
                    break
                } else if byte == Byte.lessThan {
                    cursor.index = index
                    return "a tag is not closed with '>' before the next '<'"
                }
                if byte == Byte.lineFeed { line += 1 }
                index += 1
            }
            tag.append(contentsOf: bytes[start..<index])
            cursor.index = closed ? index + 1 : index
            if closed { return nil }
            if tag.count > Self.maxTagBytes {
                return Self.tooLong("a tag") + " (is a '>' or a quote missing?)"
            }
        }
        return "the file ends inside a tag"
    }

    /// Skips past `terminator`, counting lines.
    private func skip(past terminator: [UInt8]) throws -> Skipped {
        var matched = 0
        var skipped = 0
        while try cursor.ensure() {
            skipped += 1
            if skipped > Self.maxTagBytes { return .tooLong }
            let byte = cursor.bytes[cursor.index]
            cursor.index += 1
            if byte == Byte.lineFeed { line += 1 }
            if byte == terminator[matched] {
                matched += 1
                if matched == terminator.count { return .done }
            } else if byte == terminator[0] {
                // In "--->" or "]]]>", the bytes just seen can still start the terminator.
                matched = matched >= 2 && terminator[1] == terminator[0] ? 2 : 1
            } else {
                matched = 0
            }
        }
        return .endOfInput
    }

    /// Skips a `<!…>` declaration after its `<!`: a `DOCTYPE` with its internal subset in `[...]`, whose
    /// quoted strings and comments may hold `>`, `[` or `]`.
    private func skipDeclaration() throws -> Skipped {
        var depth = 0
        var quote: UInt8 = 0
        var skipped = 0
        while try cursor.ensure() {
            skipped += 1
            if skipped > Self.maxTagBytes { return .tooLong }
            let byte = cursor.bytes[cursor.index]
            if quote == 0 && byte == Byte.lessThan, try cursor.hasPrefix(Array("<!--".utf8)) {
                cursor.index += 4
                let comment = try skip(past: Array("-->".utf8))
                guard comment == .done else { return comment }
                continue
            }
            cursor.index += 1
            if byte == Byte.lineFeed { line += 1 }
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == Byte.doubleQuote || byte == Byte.singleQuote {
                quote = byte
            } else if byte == Byte.openBracket {
                depth += 1
            } else if byte == Byte.closeBracket {
                depth -= 1
            } else if byte == Byte.greaterThan && depth <= 0 {
                return .done
            }
        }
        return .endOfInput
    }
}

private extension Array where Element == UInt8 {
    func trimmingSpaces() -> ArraySlice<UInt8> {
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return []
        }
        return self[first...last]
    }
}
