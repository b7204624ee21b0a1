import BoutiqueSQLite

/// The keys a verifier checks with now: replaced whole when its JWK Set is read again.
final class CurrentKeys: Sendable {
    private let keys: Lock<JSONWebKeySet?>

    init(_ keys: JSONWebKeySet?) { self.keys = Lock(keys) }

    var current: JSONWebKeySet? { keys.withLock { $0 } }

    func replace(with fresh: JSONWebKeySet) { keys.withLock { $0 = fresh } }
}
