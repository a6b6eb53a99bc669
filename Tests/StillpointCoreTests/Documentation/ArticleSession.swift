import Foundation
import StillpointCore

/// The session entity the core's articles use in their examples (`Session.start`, `Session.kind`, ...), as an
/// application would declare it. `DocumentationExamplesTests` holds the articles to code that uses it.
enum ArticleSession {
    enum Session: Entity {
        static let start = Attribute<Date>("start")
        static let duration = Attribute<Double>("duration", default: 0)
        static let kind = Attribute<String>("kind", default: "meditation")
        static let source = Attribute<String>("source", default: "csv")
        static let key = Attribute<String>("key", default: "")
        static let note = Attribute<String?>("note")
        static let entity = EntityDescription("Session", attributes: [start, duration, kind, source, key, note])
    }
}
