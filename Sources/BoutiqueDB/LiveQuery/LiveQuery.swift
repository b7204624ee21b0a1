/// A property whose value is a query's rows, kept current as the database changes.
///
/// ```swift
/// @MainActor
/// final class NotesModel {
///     @LiveQuery(db, { Note.all.order { $0.updatedAt.desc() }.asSelect() }) var notes: [Note] = []
/// }
/// ```
///
/// The query runs off the main actor, on a reader, as soon as the property is created; until it
/// returns, the property has the value it was declared with. Afterwards every commit that changed a
/// table the query reads (in this process or, with ``DatabaseOptions/multiProcess``, another) runs it
/// again, and a result that differs is set on the main actor. Commits to other tables cost nothing.
/// A quick query runs again right after a commit in this process, on the writer's thread, before the
/// write returns; a slower one (over 0.1 ms) on a reader, and one that was quick but is not any more
/// is stopped there after 0.25 ms and runs on a reader, so that it never holds up the next write.
/// The property is observable (`@Observable` owners and `withObservationTracking` see it change, and an
/// `ObservableObject` owner publishes `objectWillChange`), and its projected value (`$notes`) has
/// the refresh ``LiveQueryState/error``. Observing stops when the owner goes away.
///
/// Three ways to name the database:
///
/// ```swift
/// // A global or static `db`, as above, or the app's default database (set once at launch):
/// @LiveQuery({ Note.all.order { $0.updatedAt.desc() }.asSelect() }) var notes: [Note] = []   // BoutiqueDB.default
///
/// // A database the model is given: a property initializer cannot read `self`, so assign the
/// // wrapper itself in `init`:
/// @MainActor final class NotesModel {
///     @LiveQuery<Note> var notes: [Note]
///     init(db: BoutiqueDB) {
///         _notes = LiveQuery(db, { Note.all.order { $0.updatedAt.desc() }.asSelect() })
///     }
/// }
/// ```
///
/// In an `@Observable` class, mark the property `@ObservationIgnored`: the macro would otherwise turn
/// it into a computed property and declare its own `_notes` beside the wrapper's ("invalid redeclaration
/// of synthesized property"). Nothing is lost: the wrapper's state is itself observable, so views and
/// `withObservationTracking` reading `model.notes` still see every change.
///
/// ```swift
/// @MainActor @Observable final class NotesModel {
///     @ObservationIgnored @LiveQuery<Note> var notes: [Note]
///     init(db: BoutiqueDB) { _notes = LiveQuery(db, Note.all.order { $0.title }) }
/// }
/// ```
///
/// Why the query is an argument: an attribute cannot take a trailing closure, so the seed's
/// `@LiveQuery(db) { … }` is written `@LiveQuery(db, { … })`, or `@LiveQuery(db, query)`. Either way
/// the query is built once, off the main actor, when the first fetch runs: query values are not
/// `Sendable`, and a closure given to the builder on the main actor would belong to it.
@MainActor
@propertyWrapper
public struct LiveQuery<Element: Sendable> {
    /// The state behind the property: its value, its refresh error.
    public let projectedValue: LiveQueryState<[Element]>

    /// The query's rows, as of the latest refresh.
    public var wrappedValue: [Element] { projectedValue.value }

    /// Observes the query `query` builds on ``BoutiqueDB/default``.
    ///
    /// ```swift
    /// BoutiqueDB.default = db      // once, at launch (or in a test or preview)
    ///
    /// @LiveQuery({ Reminder.all.order { $0.title }.asSelect() }) var reminders: [Reminder] = []
    /// ```
    ///
    /// Without a default the property keeps `wrappedValue` and its projected value's
    /// ``LiveQueryState/error`` says so.
    public init<Query: QueryStatement>(wrappedValue: [Element] = [], _ query: @escaping @Sendable () -> Query)
    where Query.Row == Element {
        self.init(wrappedValue: wrappedValue, database: BoutiqueDB.default?.databaseActor, query: query)
    }

    /// Observes `query` on ``BoutiqueDB/default``: `@LiveQuery(Reminder.all.order { $0.title })`.
    public init<Query: QueryStatement>(wrappedValue: [Element] = [], _ query: @autoclosure @escaping @Sendable () -> Query)
    where Query.Row == Element {
        self.init(wrappedValue: wrappedValue, database: BoutiqueDB.default?.databaseActor, query: query)
    }

    /// Observes the query `query` builds.
    ///
    /// ```swift
    /// @LiveQuery(db, { Note.where { !$0.isPinned }.asSelect() }) var notes: [Note] = []
    /// ```
    public init<Query: QueryStatement>(wrappedValue: [Element] = [], _ db: BoutiqueDB, _ query: @escaping @Sendable () -> Query)
    where Query.Row == Element {
        self.init(wrappedValue: wrappedValue, database: db.databaseActor, query: query)
    }

    /// Observes `query`.
    ///
    /// ```swift
    /// @LiveQuery(db, Note.all.order { $0.title }) var notes: [Note] = []
    /// ```
    public init<Query: QueryStatement>(wrappedValue: [Element] = [], _ db: BoutiqueDB, _ query: @autoclosure @escaping @Sendable () -> Query)
    where Query.Row == Element {
        self.init(wrappedValue: wrappedValue, database: db.databaseActor, query: query)
    }

    /// Observes `query` on a ``DatabaseActor``.
    public init<Query: QueryStatement>(wrappedValue: [Element] = [], _ database: DatabaseActor, _ query: @autoclosure @escaping @Sendable () -> Query)
    where Query.Row == Element {
        self.init(wrappedValue: wrappedValue, database: database, query: query)
    }

    private init<Query: QueryStatement>(wrappedValue: [Element], database: DatabaseActor?, query: @escaping @Sendable () -> Query)
    where Query.Row == Element {
        guard let database else {
            projectedValue = LiveQueryState(initialValue: wrappedValue, failure: BoutiqueDB.missingDefaultError)
            return
        }
        let fetcher = QueryFetcher(query, limit: nil)
        let observation = QueryObservation<[Element]>(database: database) { connection, site in
            let outcome = try fetcher.fetch(on: connection, at: site)
            return (outcome.rows, outcome.region)
        }
        projectedValue = LiveQueryState(initialValue: wrappedValue, observation: observation)
    }

    /// The value, read through the owning object so that an `ObservableObject` owner is told of changes.
    public static subscript<Owner: AnyObject>(
        _enclosingInstance owner: Owner,
        wrapped wrappedKeyPath: KeyPath<Owner, [Element]>,
        storage storageKeyPath: KeyPath<Owner, Self>
    ) -> [Element] {
        let state = owner[keyPath: storageKeyPath].projectedValue
        state.connect(to: owner)
        return state.value
    }
}
