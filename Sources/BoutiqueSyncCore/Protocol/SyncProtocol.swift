/// The sync protocol's version; a request of another version is refused.
public enum SyncProtocol {
    /// The version these message types speak. Version 2 brought spaces (rows a server with rules
    /// shows to some users only, membership requests, space events in pulls).
    public static let version = 2
    /// How far ahead of the server's own time a pushed stamp may be before the push is refused.
    public static let defaultMaximumClockSkewMilliseconds: UInt64 = 10 * 60 * 1000
}
