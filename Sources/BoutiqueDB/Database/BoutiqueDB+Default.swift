extension BoutiqueDB {
    /// The database live queries use when none is given: `@LiveQuery({ … })`, `@LiveQueryOne({ … })`.
    ///
    /// Set it once, when the app launches, before the models holding live queries are created; tests and
    /// previews set it to an in-memory database of their own:
    ///
    /// ```swift
    /// // At launch, before any model holding a live query is created:
    /// BoutiqueDB.default = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)
    /// // In a test or a preview:
    /// BoutiqueDB.default = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
    ///
    /// @MainActor final class RemindersModel {
    ///     @LiveQuery({ Reminder.all.order { $0.title }.asSelect() }) var reminders: [Reminder] = []
    /// }
    /// ```
    ///
    /// A live query is bound to the database that was the default when it was created: setting another
    /// one later affects only live queries created afterwards. A live query created while no default is
    /// set keeps its declared value and reports ``BoutiqueError/invalidArgument(_:)`` in its
    /// ``LiveQueryState/error``.
    public static var `default`: BoutiqueDB?

    /// The error a live query reports when it was given no database and no default is set.
    static var missingDefaultError: BoutiqueError {
        .invalidArgument(
            "this live query names no database and BoutiqueDB.default is not set: set BoutiqueDB.default before creating it, or pass a database")
    }
}
