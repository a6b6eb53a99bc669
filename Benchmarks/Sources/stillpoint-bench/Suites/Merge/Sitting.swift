import StillpointCore

/// The entity the `merge` suite stores: a meditation sitting, with a number, a title and minutes.
enum Sitting: Entity {
    static let uid = Attribute<Int32>("uid")
    static let title = Attribute<String>("title")
    static let minutes = Attribute<Int32>("minutes")
    static let entity = EntityDescription("Sitting", attributes: [uid, title, minutes])

    static let schema: Schema = {
        do {
            return try Schema([Sitting.self])
        } catch {
            fatalError("the Sitting schema is invalid: \(error)")
        }
    }()
}
