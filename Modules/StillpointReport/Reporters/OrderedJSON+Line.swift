import StillpointCore

extension OrderedJSON {
    /// On one line, without spaces: one record of a JSON Lines file, whose text holds no line break (a string's
    /// own line breaks are escaped).
    ///
    /// ```swift
    /// OrderedJSON.object(["id": .string("me"), "sessions": .number(3)]).line()   // {"id":"me","sessions":3}
    /// ```
    public func line() -> String {
        var output = ""
        writeLine(to: &output)
        return output
    }

    private func writeLine(to output: inout String) {
        switch self {
        case .null, .bool, .number, .string:
            output += formatted()
        case .array(let elements):
            output += "["
            for (offset, element) in elements.enumerated() {
                if offset > 0 { output += "," }
                element.writeLine(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (offset, member) in members.enumerated() {
                if offset > 0 { output += "," }
                output += JSONText.quoted(member.key) + ":"
                member.value.writeLine(to: &output)
            }
            output += "}"
        }
    }
}
