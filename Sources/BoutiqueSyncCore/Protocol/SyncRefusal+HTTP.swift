extension SyncRefusal.Reason {
    /// The HTTP status a refusal for this reason is answered with. The error body's `code` is the
    /// reason's raw value, so a device reads the reason back from the code, and the status tells
    /// proxies and logs what kind of answer it is:
    ///
    /// ```swift
    /// SyncRefusal.Reason.replicaTaken.httpStatus                  // 403
    /// SyncRefusal.Reason(httpStatus: 403, code: "replicaTaken")   // .replicaTaken
    /// ```
    public var httpStatus: Int {
        switch self {
        case .unauthorized: 401
        case .forbidden, .replicaTaken: 403
        case .tooLarge: 413
        case .appTooOld, .protocolMismatch: 426
        case .clockSkew, .invalid: 400
        case .rulesMismatch: 503
        }
    }

    /// The reason an error answer names: its `code` when that is a reason's raw value, else what its
    /// status means (an answer of a proxy in between, or of the HTTP layer below the protocol:
    /// `not-found`, `unavailable`).
    public init(httpStatus: Int, code: String?) {
        if let code, let named = Self(rawValue: code) {
            self = named
            return
        }
        switch httpStatus {
        case 401: self = .unauthorized
        case 403: self = .forbidden
        case 413: self = .tooLarge
        case 426: self = .appTooOld
        default: self = .invalid
        }
    }
}
