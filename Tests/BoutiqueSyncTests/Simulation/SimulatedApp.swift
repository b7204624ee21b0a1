import BoutiqueSync

/// The app a simulated device runs: its schema before and after an upgrade, and the tables it syncs.
/// The sync simulator's notes app is the default; the spaces simulator runs the reminders app.
struct SimulatedApp: Sendable {
    let plan: BoutiqueMigrationPlan
    let upgraded: BoutiqueMigrationPlan
    let tables: [String]
    /// The log rows one push carries (``SyncOptions/pushRowLimit``): a transaction of more goes in parts.
    let pushRowLimit: Int
    /// Its collaborative text columns (``SyncOptions/collaborativeText``).
    var collaborativeText: Set<String> = []
    /// The models of its tables, when sync must learn from them which columns hold attachments.
    var models: [any Table.Type]? = nil

    /// Notes and their tags, with a column added by the upgrade. Sixteen log rows a push: a bulk edit
    /// of every row (``LocalWrites``) goes in parts, and a restored copy of a device's file pushes
    /// short of the server's watermark, whose answer must tell it the refusals it passed.
    static let notes = SimulatedApp(
        plan: SyncTestSchema.plan, upgraded: SyncTestSchema.upgraded, tables: ["note", "tag"], pushRowLimit: 16)

    /// Reminders lists shared between users, with no upgrade. Two log rows a push: its transactions of
    /// more (three writes at once, a move carrying a list's reminders) go in parts, refused ones too.
    /// Notes whose body is collaborative text, with no upgrade. Sixteen log rows a push, as for notes.
    static let collaborativeNotes = SimulatedApp(
        plan: SyncTestSchema.plan, upgraded: SyncTestSchema.plan, tables: ["note"], pushRowLimit: 16, collaborativeText: ["note.body"])

    static let reminders = SimulatedApp(plan: SpacesSchema.plan, upgraded: SpacesSchema.plan, tables: SpacesSchema.tables, pushRowLimit: 2)

    /// Photo albums shared between users, whose photos' bytes are attachments (``AttachmentSimulation``).
    static let photoAlbums = SimulatedApp(
        plan: PhotoAlbumsSchema.plan, upgraded: PhotoAlbumsSchema.plan, tables: PhotoAlbumsSchema.tables, pushRowLimit: 16,
        models: [SimulatedAlbum.self, SimulatedPhoto.self])
}
