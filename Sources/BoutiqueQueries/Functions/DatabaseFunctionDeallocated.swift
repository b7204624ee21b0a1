/// The error a database function made from a class's method throws once the instance is gone.
///
/// `@DatabaseFunction` on a method of a class keeps a weak reference to the instance, so that a
/// function added to a database does not keep its object alive; a call after the object was
/// deallocated fails the statement with this error (`log: the instance whose method the function
/// calls has been deallocated`).
public struct DatabaseFunctionDeallocated: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error.
    public init() {}

    /// What the failing statement reports after the function's name.
    public var description: String { "the instance whose method the function calls has been deallocated" }
}
