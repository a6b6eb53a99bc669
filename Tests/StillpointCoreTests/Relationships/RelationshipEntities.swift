import StillpointCore

/// A batch of entries: a to-many whose delete cascades.
enum Batch: Entity {
    static let name = Attribute<String>("name")
    static let entries = ToMany<Entry>("entries", inverse: "batch", deleteRule: .cascade)
    static let entity = EntityDescription("Batch", attributes: [name], relationships: [entries])
}

/// An entry of a batch, which may name a person (a to-one without inverse).
enum Entry: Entity {
    static let title = Attribute<String>("title")
    static let minutes = Attribute<Int>("minutes", default: 0)
    static let batch = ToOne<Batch>("batch", inverse: "entries")
    static let owner = ToOne<Person>("owner")
    static let entity = EntityDescription("Entry", attributes: [title, minutes], relationships: [batch, owner])
}

/// A folder that can't be deleted while it holds files.
enum Folder: Entity {
    static let name = Attribute<String>("name")
    static let files = ToMany<File>("files", inverse: "folder", deleteRule: .deny)
    static let entity = EntityDescription("Folder", attributes: [name], relationships: [files])
}

enum File: Entity {
    static let name = Attribute<String>("name")
    static let folder = ToOne<Folder>("folder", inverse: "files")
    static let entity = EntityDescription("File", attributes: [name], relationships: [folder])
}

/// A person whose passes keep referring to them when they are deleted (noAction): the store refuses that.
enum Person: Entity {
    static let name = Attribute<String>("name")
    static let passes = ToMany<Pass>("passes", inverse: "holder", deleteRule: .noAction)
    static let entity = EntityDescription("Person", attributes: [name], relationships: [passes])
}

enum Pass: Entity {
    static let code = Attribute<String>("code")
    static let holder = ToOne<Person>("holder", inverse: "passes")
    static let entity = EntityDescription("Pass", attributes: [code], relationships: [holder])
}

/// A member with one locker: a one-to-one whose column the locker holds; deleting the member cascades.
enum Member: Entity {
    static let name = Attribute<String>("name")
    static let locker = ToOne<Locker>("locker", inverse: "member", deleteRule: .cascade, isStored: false)
    static let entity = EntityDescription("Member", attributes: [name], relationships: [locker])
}

enum Locker: Entity {
    static let number = Attribute<Int>("number")
    static let member = ToOne<Member>("member", inverse: "locker")
    static let entity = EntityDescription("Locker", attributes: [number], relationships: [member])
}

var relationshipEntities: [any Entity.Type] {
    [Batch.self, Entry.self, Folder.self, File.self, Person.self, Pass.self, Member.self, Locker.self]
}
