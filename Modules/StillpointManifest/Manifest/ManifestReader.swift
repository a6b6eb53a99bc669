import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics
import Yams

/// Walks a manifest's YAML nodes into a ``Manifest``, collecting every problem instead of stopping at the first.
///
/// ```swift
/// var reader = ManifestReader(yaml: text, file: "default.yaml", schema: Session.schema)
/// let manifest = reader.read()   // as much as could be read
/// reader.errors                  // and what could not
/// ```
struct ManifestReader {
    static let topLevelKeys = ["version", "store", "time_zone", "day_starts_at", "as_of", "filters", "statistics",
                               "custom_statistics", "output", "modules"]
    static let filterKeys = ["from", "until", "kinds"]
    static let entryKeys = ["id", "as", "parameters"]
    static let customKeys = ["name", "summary", "entity", "function", "attribute", "where", "group_by", "unit"]
    static let outputKeys = ["formats", "path"]

    /// The largest manifest read, in bytes: a report's manifest is a page or two, and anything far larger is
    /// not one.
    static let maximumBytes = 1 << 20

    let yaml: String
    let file: String?
    let schema: Schema
    /// The formats `output.formats` may name: the built-in ones, and those of renderers added from outside.
    let formats: [ReportFormat]
    let lines: [String]
    private(set) var errors: [ManifestError] = []

    init(yaml: String, file: String?, schema: Schema, formats: [ReportFormat] = ReportFormat.builtIn) {
        self.yaml = yaml
        self.file = file
        self.schema = schema
        self.formats = formats
        self.lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
    }

    // MARK: The document

    mutating func read() -> Manifest {
        var manifest = Manifest(file: file)
        manifest.sourceLines = lines
        guard yaml.utf8.count <= Self.maximumBytes else {
            fail(nil, "the manifest is \(yaml.utf8.count) bytes, more than the \(Self.maximumBytes) a manifest may have; list statistics in a short YAML file such as Config/default.yaml")
            return manifest
        }
        // Before Yams builds the document: it compares mapping keys whole, aliases and all, so a key that
        // stands for billions of nodes would never finish.
        if let excess = YAMLAliasExpansion.firstExcess(in: yaml) {
            let place = SourceLocation(file: file, line: excess.line, column: excess.column)
            fail(at: place, "the aliases (*name) of this manifest stand for more than \(YAMLAliasExpansion.maximumNodes) values once expanded, here; write the values out instead of aliases of aliases")
            return manifest
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            errors.append(yamlError(error))
            return manifest
        }
        guard let root else {
            fail(nil, "the manifest is empty; list statistics under `statistics:` (Config/default.yaml is a starting point)")
            return manifest
        }
        guard let keys = mapping(root, "the manifest", allowed: Self.topLevelKeys, expected: "keys such as version and statistics")
        else { return manifest }

        if let node = keys["version"]?.value, let text = scalar(node, "version", expected: "a version number such as 1") {
            if let version = Int(text), version == Manifest.currentVersion {
                manifest.version = version
            } else {
                fail(node, "unsupported version \(QuotedValue(text)): this Stillpoint reads version \(Manifest.currentVersion) manifests; write version: 1")
            }
        }
        if let node = keys["store"]?.value {
            manifest.store = scalar(node, "store", expected: "the path of a store file such as practice.sqlite")
        }
        manifest.rootLocation = location(root)
        if let node = keys["modules"]?.value {
            readModules(node, into: &manifest)
        }
        readEnvironment(keys, into: &manifest)
        if let node = keys["custom_statistics"]?.value {
            readCustomStatistics(node, into: &manifest)
        }
        if let node = keys["statistics"]?.value {
            readEntries(node, into: &manifest)
        } else {
            fail(root, "the manifest lists no statistics: add a `statistics:` list such as `statistics: [session_count, total_time]`")
        }
        if let node = keys["output"]?.value {
            readOutput(node, into: &manifest)
        }
        return manifest
    }

    // MARK: Sections

    private mutating func readEnvironment(_ keys: [String: (key: Node, value: Node)], into manifest: inout Manifest) {
        if let node = keys["time_zone"]?.value, let text = scalar(node, "time_zone", expected: "an IANA time zone such as Europe/Berlin") {
            if text.lowercased() == "local" {
                manifest.environment.timeZone = TimeZone.current
            } else if let zone = TimeZone(identifier: text) {
                manifest.environment.timeZone = zone
            } else {
                fail(node, "unknown time zone \(QuotedValue(text))" + Self.suggest(text, TimeZone.knownTimeZoneIdentifiers,
                     "use an IANA name such as Europe/Berlin, America/New_York or UTC, or local for this machine's zone"))
            }
        }
        if let node = keys["day_starts_at"]?.value,
           let text = scalar(node, "day_starts_at", expected: "a duration such as 4h") {
            if let seconds = StatisticParameters.parseAnyDuration(text) {
                if let problem = StatisticParameters.dayStartProblem(seconds, written: text) {
                    fail(node, problem)
                } else {
                    manifest.environment.dayStartsAt = seconds
                }
            } else {
                fail(node, "day_starts_at expects a duration such as 0, 4h or -2h, not \(QuotedValue(text))")
            }
        }
        if let node = keys["as_of"]?.value, let text = scalar(node, "as_of", expected: "an ISO 8601 instant such as 2024-03-15T12:00:00Z") {
            if text.lowercased() == "now" {
                manifest.environment.asOf = Date()
            } else if let instant = StatisticParameters.parseInstant(text) {
                manifest.environment.asOf = instant
            } else {
                fail(node, "as_of expects an instant that exists, \(ISOInstant.expectedForm), or now; got \(QuotedValue(text))")
            }
        }
        guard let filters = keys["filters"]?.value, !isNull(filters),
              let keys = mapping(filters, "filters", allowed: Self.filterKeys, expected: "from, until and kinds")
        else { return }
        let zone = manifest.environment.timeZone, dayStartsAt = manifest.environment.dayStartsAt
        if let node = keys["from"]?.value {
            manifest.environment.from = bound(node, "from", zone: zone, dayStartsAt: dayStartsAt, nextDay: false)
        }
        if let node = keys["until"]?.value {
            manifest.environment.until = bound(node, "until", zone: zone, dayStartsAt: dayStartsAt, nextDay: true)
        }
        if let node = keys["kinds"]?.value {
            manifest.environment.kinds = strings(node, "kinds", expected: "a list of kinds such as [yoga, meditation]")
        }
        if let from = manifest.environment.from, let until = manifest.environment.until, from >= until, let node = keys["until"]?.value {
            fail(node, "until is not after from, so no session can count; swap them or widen the range")
        }
    }

    /// `from` or `until`: an instant as is, or a date as the start of that day (`until`: of the next day, so
    /// that the date named is included) in the manifest's zone and day boundary.
    private mutating func bound(_ node: Node, _ key: String, zone: TimeZone, dayStartsAt: TimeInterval, nextDay: Bool) -> Date? {
        guard let text = scalar(node, key, expected: "a date such as 2024-01-01 or an instant such as 2024-01-01T06:00:00Z")
        else { return nil }
        if let day = LocalDay(text) {
            return DayBoundary(timeZone: zone, dayStartsAt: dayStartsAt).start(of: nextDay ? day.adding(days: 1) : day)
        }
        if let instant = ISOInstant.parse(text) { return instant }
        fail(node, "\(key) expects a date that exists such as 2024-01-01 or an ISO 8601 instant such as 2024-01-01T06:00:00Z, not \(QuotedValue(text))")
        return nil
    }

    private mutating func readEntries(_ node: Node, into manifest: inout Manifest) {
        guard !isNull(node) else { return }
        guard case .sequence(let sequence) = node else {
            fail(node, "statistics expects a list of entries, one per line, each `- id: some_statistic` or `- some_statistic`")
            return
        }
        var taken: [String: SourceLocation?] = [:]
        for item in sequence {
            guard let entry = readEntry(item) else { continue }
            if let previous = taken[entry.name] {
                let place = previous.map { " (line \($0.line))" } ?? ""
                if entry.name == entry.id {
                    fail(item, "'\(entry.id)' is listed twice\(place); to run it again with other parameters, name this entry with `as:`, e.g. as: \(entry.id)_2")
                } else {
                    fail(item, "the name '\(entry.name)' is already taken\(place); names given with `as:` must be unique")
                }
                continue
            }
            taken[entry.name] = entry.location
            manifest.entries.append(entry)
        }
    }

    private mutating func readEntry(_ node: Node) -> ManifestEntry? {
        if case .scalar = node {
            guard let id = scalar(node, "a statistics entry", expected: "a statistic id") else { return nil }
            return ManifestEntry(id: id, location: location(node))
        }
        guard let keys = mapping(node, "a statistics entry", allowed: Self.entryKeys, expected: "id, as and parameters")
        else { return nil }
        guard let idNode = keys["id"]?.value else {
            fail(node, "this entry has no id: add `id: some_statistic` (`stillpoint statistics` lists them)")
            return nil
        }
        guard let id = scalar(idNode, "id", expected: "a statistic id such as current_streak") else { return nil }
        var name: String?
        if let asNode = keys["as"]?.value, let text = scalar(asNode, "as", expected: "a name such as \(id)_2") {
            if Self.isSnakeCase(text) {
                name = text
            } else {
                fail(asNode, "\(QuotedValue(text)) is not a snake_case name; write it like \(Self.snakeCased(text))")
            }
        }
        var parameters: [String: ParameterValue] = [:]
        var keyLocations: [String: SourceLocation] = [:]
        if let parametersNode = keys["parameters"]?.value, !isNull(parametersNode) {
            if case .mapping(let mapping) = parametersNode {
                for (keyNode, valueNode) in mapping {
                    guard let key = keyName(keyNode) else { continue }
                    if isNull(valueNode) {
                        fail(valueNode, "parameter '\(key)' has no value; give one after the colon, or remove the line")
                        continue
                    }
                    parameters[key] = parameterValue(valueNode)
                    keyLocations[key] = location(keyNode)
                }
            } else {
                fail(parametersNode, "parameters expects a mapping of names to values, e.g. parameters: {minimum_duration: 10m}")
            }
        }
        return ManifestEntry(id: id, name: name, parameters: parameters, location: location(node),
                             idLocation: location(idNode), parameterKeyLocations: keyLocations)
    }

    private mutating func readCustomStatistics(_ node: Node, into manifest: inout Manifest) {
        guard !isNull(node) else { return }
        guard case .mapping(let mapping) = node else {
            fail(node, "custom_statistics expects a mapping of ids to definitions, e.g. yoga_time: {function: sum, attribute: duration, where: \"kind == 'yoga'\"}")
            return
        }
        for (keyNode, definition) in mapping {
            guard let id = keyName(keyNode) else { continue }
            if !Self.isSnakeCase(id) {
                fail(keyNode, "'\(id)' is not a snake_case id; write it like \(Self.snakeCased(id))")
            }
            manifest.customLocations[id] = location(keyNode)
            if let statistic = readCustomStatistic(id, definition) {
                manifest.customStatistics.append(statistic)
            } else {
                manifest.unresolvedIDs.insert(id)
            }
        }
    }

    private mutating func readCustomStatistic(_ id: String, _ node: Node) -> CustomStatistic? {
        let errorCount = errors.count
        guard let keys = mapping(node, "custom statistic '\(id)'", allowed: Self.customKeys,
                                 expected: "function, attribute, where, group_by, unit and name")
        else { return nil }
        func text(_ key: String, _ expected: String) -> String? {
            keys[key].flatMap { scalar($0.value, key, expected: expected) }
        }
        var entity = Session.entity
        if let node = keys["entity"]?.value, let name = scalar(node, "entity", expected: "an entity name such as Session") {
            do {
                entity = try schema.entity(named: name)
            } catch {
                fail(node, "\(error) (entities: \(schema.entities.map(\.name).joined(separator: ", ")))")
            }
        }
        var function: AggregateFunction?
        let functions = AggregateFunction.allCases.map(\.rawValue)
        if let node = keys["function"]?.value {
            if let name = scalar(node, "function", expected: "one of: \(functions.joined(separator: ", "))") {
                function = AggregateFunction(rawValue: name)
                if function == nil {
                    fail(node, "unknown function '\(name)'" + Self.suggest(name, functions, "use one of: \(functions.joined(separator: ", "))"))
                }
            }
        } else {
            fail(node, "custom statistic '\(id)' has no function: add `function:` with one of \(functions.joined(separator: ", "))")
        }
        var unit: StatisticUnit?
        let units = StatisticUnit.allCases.map(\.rawValue)
        if let node = keys["unit"]?.value, let name = scalar(node, "unit", expected: "one of: \(units.joined(separator: ", "))") {
            unit = StatisticUnit(rawValue: name)
            if unit == nil {
                fail(node, "unknown unit '\(name)'" + Self.suggest(name, units, "use one of: \(units.joined(separator: ", "))"))
            }
        }
        let attribute = text("attribute", "an attribute name such as duration")
        let format = text("where", "a predicate such as \"kind == 'yoga'\"")
        let groupBy = keys["group_by"].flatMap { strings($0.value, "group_by", expected: "a list of attributes such as [kind, source]") } ?? []
        let name = text("name", "a name such as \"Yoga time\"")
        let summary = text("summary", "a sentence")
        guard errors.count == errorCount, let function else { return nil }
        do {
            return try CustomStatistic(id: id, name: name, summary: summary, entity: entity, function: function,
                                       attribute: attribute, where: format, groupBy: groupBy, unit: unit)
        } catch {
            let field = keys[error.field.rawValue]?.value ?? node
            var target = field
            if error.field == .groupBy, let index = error.index, case .sequence(let items) = field, index < items.count {
                target = items[index]
            }
            if error.field == .where, let predicateError = error.predicateError {
                failPredicate(target, predicateError)
            } else if error.field == .attribute, keys["attribute"] == nil {
                fail(node, error.message)
            } else {
                fail(target, error.message)
            }
            return nil
        }
    }

    /// `modules:`, the names of the statistic modules the report registers, each once.
    private mutating func readModules(_ node: Node, into manifest: inout Manifest) {
        let expected = "a list of statistic module names such as [TotalStatistics, StreakStatistics]"
        guard !isNull(node) else {
            fail(node, "modules has no value; give \(expected), or remove the key to register every module")
            return
        }
        guard let names = strings(node, "modules", expected: expected) else { return }
        let items: [Node] = { if case .sequence(let items) = node { return Array(items) } else { return [node] } }()
        var registered: [String] = []
        for (name, item) in zip(names, items) {
            if let previous = manifest.moduleLocations[name] {
                fail(item, "the module '\(name)' is listed twice (line \(previous.line)); list each module once")
                continue
            }
            registered.append(name)
            manifest.moduleLocations[name] = location(item)
        }
        manifest.modules = registered
    }

    private mutating func readOutput(_ node: Node, into manifest: inout Manifest) {
        guard !isNull(node), let keys = mapping(node, "output", allowed: Self.outputKeys, expected: "formats and path") else { return }
        let names = formats.map(\.name)
        if let formatsNode = keys["formats"]?.value,
           let formats = strings(formatsNode, "formats", expected: "a list of formats such as [text, json]") {
            let items: [Node] = { if case .sequence(let items) = formatsNode { return Array(items) } else { return [formatsNode] } }()
            var parsed: [ReportFormat] = []
            for (name, item) in zip(formats, items) {
                if let format = ReportFormat(argument: name, among: self.formats) {
                    parsed.append(format)
                } else {
                    fail(item, "unknown output format '\(name)'" + Self.suggest(name, names, "use any of: \(names.joined(separator: ", "))"))
                }
            }
            manifest.output.formats = parsed
        }
        if let pathNode = keys["path"]?.value {
            manifest.output.path = scalar(pathNode, "path", expected: "a file path such as reports/practice")
        }
    }

    // MARK: Nodes

    /// The keys of a mapping by name, reporting unknown and non-text keys; `nil` (and an error) when `node` is not a mapping.
    private mutating func mapping(_ node: Node, _ what: String, allowed: [String], expected: String) -> [String: (key: Node, value: Node)]? {
        guard case .mapping(let mapping) = node else {
            fail(node, "\(what) expects a mapping of \(expected), not \(Self.kind(of: node))")
            return nil
        }
        var keys: [String: (key: Node, value: Node)] = [:]
        for (keyNode, valueNode) in mapping {
            guard let key = keyName(keyNode) else { continue }
            guard allowed.contains(key) else {
                fail(keyNode, "unknown key '\(key)' in \(what)" + Self.suggest(key, allowed, "the keys here are: \(allowed.joined(separator: ", "))"))
                continue
            }
            keys[key] = (keyNode, valueNode)
        }
        return keys
    }

    /// A mapping key's text, or `nil` (and an error) for a list or mapping used as a key.
    private mutating func keyName(_ node: Node) -> String? {
        guard case .scalar(let scalar) = node else {
            fail(node, "a key must be a name, not \(Self.kind(of: node))")
            return nil
        }
        return scalar.string
    }

    /// A scalar's text, or `nil` (and an error that names `key` and what it expects) for anything else.
    private mutating func scalar(_ node: Node, _ key: String, expected: String) -> String? {
        switch node {
        case .scalar(let scalar) where !isNull(node):
            return scalar.string
        case .scalar:
            fail(node, "\(key) has no value; give \(expected), or remove the key")
        default:
            fail(node, "\(key) expects \(expected), not \(Self.kind(of: node))")
        }
        return nil
    }

    /// A list of scalars' texts; a single scalar counts as a list of one.
    private mutating func strings(_ node: Node, _ key: String, expected: String) -> [String]? {
        guard case .sequence(let sequence) = node else {
            return scalar(node, key, expected: expected).map { [$0] }
        }
        var texts: [String] = []
        for item in sequence {
            guard let text = scalar(item, "each item of \(key)", expected: "a single value") else { return nil }
            texts.append(text)
        }
        return texts
    }

    /// A parameter's value as written, with its place, for ``StatisticParameters`` to read by type.
    private func parameterValue(_ node: Node) -> ParameterValue {
        switch node {
        case .scalar(let scalar):
            return ParameterValue(.scalar(scalar.string), location: location(node))
        case .sequence(let sequence):
            return ParameterValue(.list(sequence.map(parameterValue)), location: location(node))
        case .mapping(let mapping):
            var values: [String: ParameterValue] = [:]
            for (key, value) in mapping {
                if case .scalar(let scalar) = key { values[scalar.string] = parameterValue(value) }
            }
            return ParameterValue(.map(values), location: location(node))
        case .alias(let alias):
            return ParameterValue(.scalar(alias.anchor.rawValue), location: location(node))
        }
    }

    private func isNull(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node else { return false }
        return scalar.style == .plain && node.null != nil
    }

    private static func kind(of node: Node) -> String {
        switch node {
        case .scalar(let scalar): return "\(QuotedValue(scalar.string))"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .alias: return "an alias"
        }
    }

    // MARK: Errors

    func location(_ node: Node?) -> SourceLocation? {
        node?.mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) }
    }

    private mutating func fail(_ node: Node?, _ message: String) {
        fail(at: location(node), message)
    }

    private mutating func fail(at location: SourceLocation?, _ message: String) {
        errors.append(ManifestError(location: location, message: message, sourceLine: location.flatMap(line(at:))))
    }

    private func line(at location: SourceLocation) -> String? {
        lines.indices.contains(location.line - 1) ? lines[location.line - 1] : nil
    }

    /// A predicate's error at the column of its caret in the manifest, when the predicate sits on one line.
    private mutating func failPredicate(_ node: Node, _ error: FetchPredicateError) {
        var place = location(node)
        if case .scalar(let scalar) = node, let offset = error.offset, let format = error.format, !format.contains("\n"),
           scalar.style == .plain || scalar.style == .singleQuoted || scalar.style == .doubleQuoted, var shifted = place {
            // A quoted scalar starts at its quote; escapes inside it are rare enough to ignore.
            shifted.column += offset + (scalar.style == .plain ? 0 : 1)
            if let line = line(at: shifted), line.unicodeScalars.count >= shifted.column - 1 { place = shifted }
        }
        fail(at: place, "invalid where predicate: \(error.description)")
    }

    private func yamlError(_ error: any Error) -> ManifestError {
        let advice = "check the indentation (spaces, not tabs) and the quoting near this line"
        guard let yamlError = error as? YamlError else {
            return ManifestError(location: nil, message: "malformed YAML: \(error)")
        }
        func problem(_ context: YamlError.Context?, _ problem: String, _ mark: Mark) -> ManifestError {
            // libyaml notices a missing `:`, quote or bracket only at the next token, often the next line (or
            // the end of the file): the mistake is where the unfinished key, scalar or list began, which is
            // the context's mark.
            let unfinished = ["could not find expected ':'", "did not find expected ',' or", "found unexpected end of stream"]
                .contains { problem.contains($0) }
            if let context, unfinished, context.mark.line < mark.line {
                let where_ = SourceLocation(file: file, line: context.mark.line, column: context.mark.column)
                return ManifestError(location: where_,
                                     message: "malformed YAML: \(problem) (\(context.text) that starts here; noticed at line \(mark.line), column \(mark.column)); \(advice)",
                                     sourceLine: line(at: where_))
            }
            // A mark past the last line (the end of the file) points at the last line.
            let lastLine = max(1, lines.last?.isEmpty == true ? lines.count - 1 : lines.count)
            let where_ = mark.line > lastLine ? SourceLocation(file: file, line: lastLine, column: 1)
                : SourceLocation(file: file, line: mark.line, column: mark.column)
            let during = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
            return ManifestError(location: where_, message: "malformed YAML: \(problem)\(during); \(advice)",
                                 sourceLine: line(at: where_))
        }
        switch yamlError {
        case .scanner(let context, let text, let mark, _), .parser(let context, let text, let mark, _),
             .composer(let context, let text, let mark, _):
            return problem(context, text, mark)
        case .duplicatedKeysInMapping(let duplicates, let context):
            let names = duplicates.map { "'\($0)'" }.joined(separator: ", ")
            let where_ = SourceLocation(file: file, line: context.mark.line, column: context.mark.column)
            return ManifestError(location: where_, message: "the key \(names) appears twice in one mapping; keep one of them",
                                 sourceLine: line(at: where_))
        case .reader(let text, let offset, _, _):
            var where_: SourceLocation?
            if let offset, offset <= yaml.count {
                let prefix = yaml.prefix(offset)
                let line = prefix.filter(\.isNewline).count + 1
                let column = prefix.split(separator: "\n", omittingEmptySubsequences: false).last.map { $0.unicodeScalars.count + 1 } ?? 1
                where_ = SourceLocation(file: file, line: line, column: column)
            }
            return ManifestError(location: where_, message: "unreadable YAML: \(text); save the manifest as UTF-8 text",
                                 sourceLine: where_.flatMap(line(at:)))
        default:
            return ManifestError(location: nil, message: "malformed YAML: \(yamlError)")
        }
    }

    // MARK: Names

    /// "; did you mean 'x'? Advice." when a candidate is near `name`, else "; advice".
    static func suggest(_ name: String, _ candidates: [String], _ advice: String) -> String {
        guard let suggestion = NameSuggestion.nearestName(to: name, in: candidates) else { return "; " + advice }
        return "; did you mean '\(suggestion)'? " + advice.prefix(1).uppercased() + advice.dropFirst()
    }

    static func isSnakeCase(_ name: String) -> Bool {
        name.range(of: "^[a-z][a-z0-9]*(_[a-z0-9]+)*$", options: .regularExpression) != nil
    }

    /// `Short Streak` or `shortStreak` → `short_streak`.
    static func snakeCased(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase, let last = result.last, last != "_" { result += "_" }
            if character.isLetter || character.isNumber {
                result += character.lowercased()
            } else if result.last != "_", !result.isEmpty {
                result += "_"
            }
        }
        while result.hasSuffix("_") { result.removeLast() }
        return result.isEmpty ? "name" : result
    }
}
