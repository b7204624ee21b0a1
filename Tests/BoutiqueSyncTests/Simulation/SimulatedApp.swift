import BoutiqueSync

/// The app a simulated device runs: its schema before and after an upgrade, and the tables it syncs.
/// The sync simulator's notes app is the default; the spaces simulator runs the reminders app.
struct SimulatedApp: Sendable {
    let plan: BoutiqueMigrationPlan
    let upgraded: BoutiqueMigrationPlan
    let tables: [String]

    /// Notes and their tags, with a column added by the upgrade.
    static let notes = SimulatedApp(plan: SyncTestSchema.plan, upgraded: SyncTestSchema.upgraded, tables: ["note", "tag"])

    /// Reminders lists shared between users, with no upgrade.
    static let reminders = SimulatedApp(plan: SpacesSchema.plan, upgraded: SpacesSchema.plan, tables: SpacesSchema.tables)
}
