/// A property whose value is a query's first row (or `nil`), kept current as the database changes.
///
/// ```swift
/// @MainActor
/// final class NoteModel {
///     @LiveQueryOne(db, { Note.where { $0.isPinned }.order { $0.updatedAt.desc() } }) var pinned: Note?
/// }
/// ```
///
/// Everything ``LiveQuery`` says holds: the query runs off the main actor, again only after commits
/// that changed a table it reads, and an equal result is not set again. It too uses
/// ``BoutiqueDB/default`` when no database is given, is assigned in `init` when the database is a
/// property, and needs `@ObservationIgnored` in an `@Observable` class:
///
/// ```swift
/// @MainActor @Observable final class ReminderModel {
///     @ObservationIgnored @LiveQueryOne({ Reminder.where { !$0.isDone }.order { $0.dueDate }.asSelect() })
///     var next: Reminder?
/// }
/// ```
@MainActor
@propertyWrapper
public struct LiveQueryOne<Element: Sendable> {
    /// The state behind the property: its value, its refresh error.
    public let projectedValue: LiveQueryState<Element?>

    /// The query's first row, as of the latest refresh.
    public var wrappedValue: Element? { projectedValue.value }

    /// Observes the query `query` builds on ``BoutiqueDB/default``.
    ///
    /// ```swift
    /// BoutiqueDB.default = db      // once, at launch (or in a test or preview)
    ///
    /// @LiveQueryOne({ Reminder.all.order { $0.title }.asSelect() }) var first: Reminder?
    /// ```
    ///
    /// Without a default the property keeps `wrappedValue` and its projected value's
    /// ``LiveQueryState/error`` says so.
    public init<Query: QueryStatement>(wrappedValue: Element? = nil, _ query: @escaping @Sendable () -> Query)
    where Query.Row == Element {
        self.init(wrappedValue: wrappedValue, database: BoutiqueDB.default?.databaseActor, query: query)
    }

    /// Observes `query` on ``BoutiqueDB/default``: `@LiveQueryOne(Reminder.all.order { $0.title })`.
    public init<Query: QueryStatement>(wrappedValue: Element? = nil, _ query: @autoclosure @escaping @Sendable () -> Query)
    where Query.Row == Element {
        self.init(wrappedValue: wrappedValue, database: BoutiqueDB.default?.databaseActor, query: query)
    }

    /// Observes the first row of the query `query` builds.
    public init<Query: QueryStatement>(wrappedValue: Element? = nil, _ db: BoutiqueDB, _ query: @escaping @Sendable () -> Query)
    where Query.Row == Element {
        self.init(wrappedValue: wrappedValue, database: db.databaseActor, query: query)
    }

    /// Observes the first row of `query`.
    public init<Query: QueryStatement>(wrappedValue: Element? = nil, _ db: BoutiqueDB, _ query: @autoclosure @escaping @Sendable () -> Query)
    where Query.Row == Element {
        self.init(wrappedValue: wrappedValue, database: db.databaseActor, query: query)
    }

    /// Observes the first row of `query` on a ``DatabaseActor``.
    public init<Query: QueryStatement>(wrappedValue: Element? = nil, _ database: DatabaseActor, _ query: @autoclosure @escaping @Sendable () -> Query)
    where Query.Row == Element {
        self.init(wrappedValue: wrappedValue, database: database, query: query)
    }

    private init<Query: QueryStatement>(wrappedValue: Element?, database: DatabaseActor?, query: @escaping @Sendable () -> Query)
    where Query.Row == Element {
        guard let database else {
            projectedValue = LiveQueryState(initialValue: wrappedValue, failure: BoutiqueDB.missingDefaultError)
            return
        }
        let fetcher = QueryFetcher(query, limit: 1)
        let observation = QueryObservation<Element?>(database: database) { connection, site in
            let outcome = try fetcher.fetch(on: connection, at: site)
            return (outcome.rows.map { $0.first }, outcome.region)
        }
        projectedValue = LiveQueryState(initialValue: wrappedValue, observation: observation)
    }

    /// The value, read through the owning object so that an `ObservableObject` owner is told of changes.
    public static subscript<Owner: AnyObject>(
        _enclosingInstance owner: Owner,
        wrapped wrappedKeyPath: KeyPath<Owner, Element?>,
        storage storageKeyPath: KeyPath<Owner, Self>
    ) -> Element? {
        let state = owner[keyPath: storageKeyPath].projectedValue
        state.connect(to: owner)
        return state.value
    }
}
