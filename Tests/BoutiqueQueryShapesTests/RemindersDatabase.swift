import BoutiqueDB
import BoutiqueQueryShapes

/// A fresh in-memory reminders database with the seed rows.
@MainActor
func openRemindersDatabase() async throws -> BoutiqueDB {
    let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: RemindersMigrations.plan)
    try await db.write { conn in try RemindersMigrations.seed(conn) }
    return db
}

/// The model, not Swift Testing's `Tag`.
typealias Tag = BoutiqueQueryShapes.Tag
