import Foundation
import StillpointCore

/// An entity with no unique index: its imports go in with `COPY` straight into the table.
enum Reading: Entity {
    static let code = Attribute<String>("code")
    static let value = Attribute<Double?>("value")
    static let label = Attribute<String?>("label")
    static let entity = EntityDescription("Reading", attributes: [code, value, label], indexes: [IndexDescription([code])])
}
