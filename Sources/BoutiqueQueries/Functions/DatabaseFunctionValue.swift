import BoutiqueSQLite
import Foundation

/// A Swift type a database function takes as an argument or returns, converted from and to the
/// SQLite value in the same form its column representation stores.
///
/// A value of the wrong storage class is refused with ``DatabaseFunctionArgumentError`` (the calling
/// statement fails with its message), never trapped on.
public protocol DatabaseFunctionValue {
    /// Reads the value SQLite passed as an argument.
    init(functionArgument value: DatabaseValue) throws

    /// The value handed back to SQLite as a result.
    var functionResult: DatabaseValue { get }
}

/// A database function received an argument it cannot read as the type it declares.
public struct DatabaseFunctionArgumentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Swift type the function declares.
    public var expected: String
    /// The value SQLite passed.
    public var found: DatabaseValue

    /// - Parameters:
    ///   - expected: The Swift type the function declares.
    ///   - found: The value SQLite passed.
    public init(expected: String, found: DatabaseValue) {
        self.expected = expected
        self.found = found
    }

    /// What was expected and what was found, for the failing statement's message.
    public var description: String {
        "expected \(expected), found \(found.storageClass) \(found)"
    }
}

extension String: DatabaseFunctionValue {
    public init(functionArgument value: DatabaseValue) throws {
        guard case .text(let text) = value else { throw DatabaseFunctionArgumentError(expected: "String", found: value) }
        self = text
    }
    public var functionResult: DatabaseValue { .text(self) }
}

extension Int: DatabaseFunctionValue {
    public init(functionArgument value: DatabaseValue) throws {
        guard case .integer(let int) = value, let exact = Int(exactly: int) else {
            throw DatabaseFunctionArgumentError(expected: "Int", found: value)
        }
        self = exact
    }
    public var functionResult: DatabaseValue { .integer(Int64(self)) }
}

extension Int64: DatabaseFunctionValue {
    public init(functionArgument value: DatabaseValue) throws {
        guard case .integer(let int) = value else { throw DatabaseFunctionArgumentError(expected: "Int64", found: value) }
        self = int
    }
    public var functionResult: DatabaseValue { .integer(self) }
}

extension Double: DatabaseFunctionValue {
    public init(functionArgument value: DatabaseValue) throws {
        switch value {
        case .real(let double): self = double
        case .integer(let int): self = Double(int)
        default: throw DatabaseFunctionArgumentError(expected: "Double", found: value)
        }
    }
    public var functionResult: DatabaseValue { .real(self) }
}

extension Bool: DatabaseFunctionValue {
    public init(functionArgument value: DatabaseValue) throws {
        guard case .integer(let int) = value else { throw DatabaseFunctionArgumentError(expected: "Bool", found: value) }
        self = int != 0
    }
    public var functionResult: DatabaseValue { .integer(self ? 1 : 0) }
}

extension [UInt8]: DatabaseFunctionValue {
    public init(functionArgument value: DatabaseValue) throws {
        guard case .blob(let bytes) = value else { throw DatabaseFunctionArgumentError(expected: "[UInt8]", found: value) }
        self = bytes
    }
    public var functionResult: DatabaseValue { .blob(self) }
}

extension Data: DatabaseFunctionValue {
    public init(functionArgument value: DatabaseValue) throws {
        guard case .blob(let bytes) = value else { throw DatabaseFunctionArgumentError(expected: "Data", found: value) }
        self = Data(bytes)
    }
    public var functionResult: DatabaseValue { .blob(Array(self)) }
}

extension UUID: DatabaseFunctionValue {
    /// Reads the lowercase text form `UUID` columns store by default (or 16 bytes).
    public init(functionArgument value: DatabaseValue) throws {
        switch value {
        case .text(let text):
            guard let uuid = UUID(uuidString: text) else { throw DatabaseFunctionArgumentError(expected: "UUID", found: value) }
            self = uuid
        case .blob(let bytes) where bytes.count == 16:
            self = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        default: throw DatabaseFunctionArgumentError(expected: "UUID", found: value)
        }
    }
    public var functionResult: DatabaseValue { UUID.encode(self) }
}

extension Date: DatabaseFunctionValue {
    /// Reads the form `Date` columns store by default.
    public init(functionArgument value: DatabaseValue) throws {
        switch value {
        case .real(let seconds): self = Date(timeIntervalSince1970: seconds)
        case .integer(let seconds): self = Date(timeIntervalSince1970: Double(seconds))
        default: throw DatabaseFunctionArgumentError(expected: "Date", found: value)
        }
    }
    public var functionResult: DatabaseValue { Date.encode(self) }
}

extension Optional: DatabaseFunctionValue where Wrapped: DatabaseFunctionValue {
    public init(functionArgument value: DatabaseValue) throws {
        self = value.isNull ? nil : try Wrapped(functionArgument: value)
    }
    public var functionResult: DatabaseValue { self?.functionResult ?? .null }
}
