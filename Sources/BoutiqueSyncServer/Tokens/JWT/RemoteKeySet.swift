import Foundation

/// A JWK Set at a URL, read again on a schedule and when a token names a key the last read did not
/// have: how keys an identity provider rotates in reach a running server.
///
/// ```swift
/// let remote = try RemoteKeySet(url: jwksURL, timing: RemoteKeySet.Timing())
/// let keys = try await remote.read()
/// await remote.startRefreshing { fresh in current.replace(with: fresh) }
/// ```
///
/// Unknown `kid`s cannot make it read more than once per ``Timing/minimumInterval``: a flood of
/// tokens naming made-up keys costs the provider one request a minute. A read that fails keeps the
/// keys of the last one that worked.
actor RemoteKeySet {
    /// How often it reads.
    struct Timing: Sendable {
        /// Between scheduled reads.
        var refreshInterval: Duration = .seconds(600)
        /// The least time between two reads, whatever asks for them.
        var minimumInterval: Duration = .seconds(60)
        /// The longest a read may take.
        var timeout: Duration = .seconds(10)
    }

    let url: URL
    let timing: Timing
    private var lastRead: ContinuousClock.Instant?
    private var refreshing: Task<Void, Never>?

    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` when `url` is not http or https.
    init(url: URL, timing: Timing) throws {
        guard let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
            throw BoutiqueError.invalidArgument("the JWK Set URL \(url.absoluteString) is not an http or https URL")
        }
        self.url = url
        self.timing = timing
    }

    /// The JWK Set read now.
    ///
    /// - Throws: ``/BoutiqueDB/BoutiqueError/invalidArgument(_:)`` saying why it cannot be read or used.
    func read() async throws -> JSONWebKeySet {
        lastRead = .now
        let bytes = try await BoundedDownload.bytes(of: url, maximumBytes: JSONWebKeySet.maximumBytes, timeout: timing.timeout)
        do {
            return try JSONWebKeySet(json: bytes)
        } catch BoutiqueError.invalidArgument(let problem) {
            throw BoutiqueError.invalidArgument("the JWK Set at \(url.absoluteString) is refused: \(problem)")
        }
    }

    /// The JWK Set read again for a token naming a key the current one lacks, or `nil` when it was
    /// read less than ``Timing/minimumInterval`` ago or cannot be read now.
    func readAfterUnknownKey() async -> JSONWebKeySet? {
        if let lastRead, ContinuousClock.now - lastRead < timing.minimumInterval { return nil }
        return try? await read()
    }

    /// Reads the set every ``Timing/refreshInterval`` from now on, handing each usable one to `replace`.
    func startRefreshing(_ replace: @escaping @Sendable (JSONWebKeySet) -> Void) {
        refreshing?.cancel()
        let interval = timing.refreshInterval
        refreshing = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, let self else { return }
                if let fresh = try? await self.read() { replace(fresh) }
            }
        }
    }

    func stop() {
        refreshing?.cancel()
        refreshing = nil
    }

    deinit { refreshing?.cancel() }
}
