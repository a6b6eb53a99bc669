import StillpointCore

/// The entity the `topologies` suite saves: a yoga pose held in a session, with a number, a name and minutes.
enum Pose: Entity {
    static let uid = Attribute<Int32>("uid")
    static let name = Attribute<String>("name")
    static let minutes = Attribute<Int32>("minutes")
    static let entity = EntityDescription("Pose", attributes: [uid, name, minutes])

    static let schema: Schema = {
        do {
            return try Schema([Pose.self])
        } catch {
            fatalError("the Pose schema is invalid: \(error)")
        }
    }()

    private static let names = ["mountain", "tree", "warrior", "child", "cobra", "bridge", "lotus"]

    /// Inserts `count` poses in `context`, unsaved.
    static func insert(_ count: Int, in context: isolated ObjectContext) {
        for uid in 0..<Int32(count) {
            let pose = context.insert(Pose.self)
            pose[Pose.uid] = uid
            pose[Pose.name] = names[Int(uid) % names.count]
            pose[Pose.minutes] = 1 + uid % 15
        }
    }
}
