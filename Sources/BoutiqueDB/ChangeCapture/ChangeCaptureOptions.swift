/// How a database records its changes in the `turso_cdc` change log.
///
/// ```swift
/// let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan,
///                                    options: .init(changeCapture: .init(mode: .full, retention: .age(.seconds(86_400)))))
/// ```
public struct ChangeCaptureOptions: Sendable, Hashable {
    /// What each change row records. ``ChangeCaptureMode/full`` by default.
    public var mode: ChangeCaptureMode
    /// How long committed transactions are kept. ``ChangeRetention/unlimited`` by default.
    public var retention: ChangeRetention
    /// How many commits pass between automatic prunings when ``retention`` is limited.
    public var pruneInterval: Int

    /// Options; every parameter has the default described on its property.
    public init(mode: ChangeCaptureMode = .full, retention: ChangeRetention = .unlimited, pruneInterval: Int = 100) {
        self.mode = mode
        self.retention = retention
        self.pruneInterval = pruneInterval
    }

    /// Full capture, unlimited retention.
    public static let `default` = ChangeCaptureOptions()

    /// Refuses values that cannot work, before the database opens.
    func validate() throws(BoutiqueError) {
        guard pruneInterval >= 1 else {
            throw .invalidArgument("changeCapture.pruneInterval must be at least 1, not \(pruneInterval)")
        }
        switch retention {
        case .unlimited: break
        case .transactions(let count) where count < 1:
            throw .invalidArgument("changeCapture.retention must keep at least 1 transaction, not \(count)")
        case .age(let duration) where duration < .zero:
            throw .invalidArgument("changeCapture.retention must not be a negative age, not \(duration)")
        default: break
        }
    }
}
