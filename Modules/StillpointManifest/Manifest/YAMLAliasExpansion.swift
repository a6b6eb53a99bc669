import StillpointStatistics
// libyaml as Yams builds it: its event stream, read once before Yams composes the document.
internal import CYaml

/// How many nodes the aliases of a YAML document stand for, counted from libyaml's events without building
/// anything, so that an "anchor bomb" (a few lines of aliases of aliases standing for billions of nodes) is
/// refused before any of it is expanded.
///
/// ```swift
/// YAMLAliasExpansion.firstExcess(in: "a: &a [x, x]\nb: [*a, *a]\n")   // nil: 6 nodes
/// ```
enum YAMLAliasExpansion {
    /// The most nodes all the aliases of a document may stand for; a manifest rarely has an alias at all.
    static let maximumNodes = 10_000

    /// The line and column (1-based, as Yams counts them) of the alias that takes the document past
    /// ``maximumNodes``, or `nil` when it stays below, or when libyaml cannot read it (Yams then says why).
    static func firstExcess(in yaml: String, limit: Int = maximumNodes) -> (line: Int, column: Int)? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        let bytes = Array(yaml.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> (line: Int, column: Int)? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            // The size of each anchored node, aliases expanded, at most `limit + 1`; the sizes of the open
            // collections, and the anchors they define.
            var sizes: [String: Int] = [:]
            var open: [(anchor: String?, size: Int)] = []
            var expanded = 0
            let add = { (size: Int, open: inout [(anchor: String?, size: Int)]) in
                if !open.isEmpty { open[open.count - 1].size = min(limit + 1, open[open.count - 1].size + size) }
            }
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_STREAM_END_EVENT:
                    return nil
                case YAML_SCALAR_EVENT:
                    if let anchor = event.data.scalar.anchor { sizes[String(cString: anchor)] = 1 }
                    add(1, &open)
                case YAML_SEQUENCE_START_EVENT:
                    open.append((event.data.sequence_start.anchor.map { String(cString: $0) }, 1))
                case YAML_MAPPING_START_EVENT:
                    open.append((event.data.mapping_start.anchor.map { String(cString: $0) }, 1))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    guard let closed = open.popLast() else { continue }
                    if let anchor = closed.anchor { sizes[anchor] = closed.size }
                    add(closed.size, &open)
                case YAML_ALIAS_EVENT:
                    let size = event.data.alias.anchor.flatMap { sizes[String(cString: $0)] } ?? 1
                    expanded = min(limit + 1, expanded + size)
                    if expanded > limit {
                        return (Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1)
                    }
                    add(size, &open)
                default:
                    continue
                }
            }
            return nil
        }
    }
}
