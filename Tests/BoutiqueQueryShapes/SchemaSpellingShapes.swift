import BoutiqueDB
import Foundation

// StructuredQueries' schema spellings as an app writes them: a view declared with `@Table` alone and
// built with its `Columns`, a group of columns (`Timestamps`) as one field of a table, a generated
// column whose expression is in the app's migration SQL, and a draft made from a stored row.

/// A reminder's title beside its list's: the rows of a view, declared as the "Views" article does.
@Table
public struct ListedReminder: Sendable, Equatable {
    public let reminderTitle: String
    public let listTitle: String

    public init(reminderTitle: String, listTitle: String) {
        self.reminderTitle = reminderTitle
        self.listTitle = listTitle
    }
}

/// When a row was made and last changed: columns several tables share.
@Selection
public struct Timestamps: Sendable, Equatable {
    public let createdAt: Date
    public let updatedAt: Date?

    public init(createdAt: Date, updatedAt: Date?) {
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A reading with its timestamps (the columns `createdAt` and `updatedAt`) and a length the database
/// computes.
@Table
public struct Observation: Sendable, Equatable {
    public let id: Int
    public var note: String
    public var reading: Double
    public let timestamps: Timestamps
    @Column(generated: .virtual)
    public let noteLength: Int

    public init(id: Int, note: String, reading: Double, timestamps: Timestamps, noteLength: Int = 0) {
        self.id = id
        self.note = note
        self.reading = reading
        self.timestamps = timestamps
        self.noteLength = noteLength
    }
}

/// A sighting that may not have been confirmed yet: its timestamps are an optional group of columns,
/// NULL in both until it is.
@Table
public struct Sighting: Sendable, Equatable {
    public let id: Int
    public var species: String
    public var confirmed: Timestamps?

    public init(id: Int, species: String, confirmed: Timestamps? = nil) {
        self.id = id
        self.species = species
        self.confirmed = confirmed
    }
}

public enum SchemaSpellingShapes {
    /// The app's migration: the group's columns flattened, the generated column's expression in SQL.
    public static let migration = BoutiqueMigration("v2_observations") { conn in
        try conn.execute("""
            CREATE TABLE observation (
                id INTEGER PRIMARY KEY,
                note TEXT NOT NULL,
                reading REAL NOT NULL,
                createdAt REAL NOT NULL,
                updatedAt REAL,
                noteLength INTEGER GENERATED ALWAYS AS (length(note)) VIRTUAL
            )
            """)
    }

    // Views
    public static func listedReminders() -> TemporaryView<ListedReminder> {
        ListedReminder.createTemporaryView(
            as: Reminder
                .join(RemindersList.all) { $0.listID.eq($1.id) }
                .select {
                    ListedReminder.Columns(
                        reminderTitle: $0.title,
                        listTitle: $1.title
                    )
                }
        )
    }
    public static func firstListedReminders() -> Select<ListedReminder.TableColumns, ListedReminder> {
        ListedReminder
            .order {
                ($0.listTitle,
                 $0.reminderTitle)
            }
            .limit(3)
    }

    // Grouped columns
    public static func observedBefore(_ date: Date) -> Where<Observation> {
        Observation.where { $0.timestamps.createdAt <= date }
    }
    public static func observed(at timestamps: Timestamps) -> Where<Observation> {
        Observation.where { $0.timestamps.eq(timestamps) }
    }
    public static func observedNoLaterThan(_ timestamps: Timestamps) -> Where<Observation> {
        Observation.where { $0.timestamps <= timestamps }
    }
    public static func newestFirst() -> Select<Observation.TableColumns, Observation> {
        Observation.order { $0.timestamps.createdAt.desc() }
    }

    public static func timestampsByID() -> Select<Observation.TableColumns, Timestamps> {
        Observation.order { $0.id }.select(\.timestamps)
    }
    public static func touch(_ id: Int, at date: Date) -> Update<Observation> {
        Observation.update { $0.timestamps.updatedAt = date }.where { $0.id == id }
    }

    // Optional groups of columns
    public static func unconfirmed() -> Where<Sighting> {
        Sighting.where { $0.confirmed.is(nil) }
    }
    public static func confirmedBefore(_ date: Date) -> Where<Sighting> {
        Sighting.where { $0.confirmed.createdAt < date }
    }
    public static func confirmed(at timestamps: Timestamps?) -> Where<Sighting> {
        Sighting.where { $0.confirmed == timestamps }
    }
    public static func confirmations() -> Select<Sighting.TableColumns, Timestamps?> {
        Sighting.order { $0.id }.select(\.confirmed)
    }
    public static func confirm(_ id: Int, at date: Date) -> Update<Sighting> {
        Sighting.update { $0.confirmed = Timestamps(createdAt: date, updatedAt: nil) }.where { $0.id == id }
    }
    public static func retouch(_ id: Int, at date: Date) -> Update<Sighting> {
        Sighting.update { $0.confirmed.updatedAt = date }.where { $0.id == id }
    }
    public static func unconfirm(_ id: Int) -> Update<Sighting> {
        Sighting.update { $0.confirmed = nil }.where { $0.id == id }
    }
    public static func speciesWithoutTimestamps() -> Select<Sighting.TableColumns, Sighting> {
        Sighting.order { $0.id }.select { Sighting.Columns(id: $0.id, species: $0.species) }
    }

    // Generated columns and drafts
    public static func record(_ note: String, reading: Double, at date: Date) -> Insert<Observation> {
        Observation.insert {
            Observation.Draft(note: note, reading: reading, timestamps: Timestamps(createdAt: date, updatedAt: nil))
        }
    }
    public static func copy(of observation: Observation) -> Insert<Observation> {
        var draft = Observation.Draft(observation)
        draft.id = nil
        return Observation.insert { draft }
    }
    public static func longNotes() -> Select<Observation.TableColumns, Observation> {
        Observation.where { $0.noteLength > 4 }.order { $0.id }
    }
}
