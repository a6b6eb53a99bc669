extension String {
    /// The string without leading and trailing white space and line breaks.
    ///
    /// Pure Swift: Foundation's `trimmingCharacters(in:)` goes through `NSString` on Linux and took half
    /// the time of a large CSV import.
    func trimmed() -> String {
        guard let first = utf8.first, let last = utf8.last else { return self }
        // Most cells have nothing to trim: any byte other than ASCII white space, or the start of a
        // multi-byte character that may be Unicode white space, ends the check at once.
        func isPlain(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x80 }
        if isPlain(first) && isPlain(last) { return self }
        guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace }) else {
            return ""
        }
        return String(self[start...end])
    }
}
