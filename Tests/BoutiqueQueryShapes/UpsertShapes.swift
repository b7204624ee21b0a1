import BoutiqueDB

/// Upserts on a `UNIQUE` column rather than the primary key.
public enum UpsertShapes {
    /// Updates the other columns of the tag with the same name.
    public static func saveTag(id: Int, name: String, uses: Int) -> Insert<Tag> {
        Tag.upsert(onConflict: \.name) { Tag(id: id, name: name, uses: uses) }
    }

    /// Adds the refused row's uses to the existing row's.
    public static func countTag(id: Int, name: String) -> Insert<Tag> {
        Tag.upsert(onConflict: \.name) {
            Tag(id: id, name: name, uses: 1)
        } doUpdate: { tag, excluded in
            tag.uses += excluded.uses
        }
    }

    /// Renames on conflict with a bound value and the refused row's value.
    public static func markTag(id: Int, name: String) -> Insert<Tag> {
        Tag.upsert(onConflict: \.name) {
            Tag(id: id, name: name)
        } doUpdate: { tag, excluded in
            tag.name = excluded.name.concat("!")
            tag.uses = 100
        }
    }

    /// Keeps the existing tag.
    public static func addTagIfNew(id: Int, name: String) -> Insert<Tag> {
        Tag.insert { Tag(id: id, name: name) }.onConflictDoNothing(\.name)
    }

    /// Skips a row that breaks any uniqueness constraint.
    public static func addTagIgnoringConflicts(id: Int, name: String) -> Insert<Tag> {
        Tag.insert { Tag(id: id, name: name) }.onConflictDoNothing()
    }

    /// StructuredQueries' spelling: an insert with a conflict target and no update does nothing.
    public static func insertTagUnlessNamed(id: Int, name: String) -> Insert<Tag> {
        Tag.insert(onConflict: \.name) { Tag(id: id, name: name) }
    }

    /// … and with `doUpdate`, is an upsert.
    public static func insertOrCountTag(id: Int, name: String) -> Insert<Tag> {
        Tag.insert(onConflict: \.name) {
            Tag(id: id, name: name, uses: 1)
        } doUpdate: { tag, excluded in
            tag.uses = tag.uses + excluded.uses
        }
    }
}
