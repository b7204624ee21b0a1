/// An optional `@Selection` struct: the type of a field that is an optional group of columns, for
/// which `@Table`'s column handle is an ``OptionalColumnGroup``.
public protocol OptionalQuerySelection: QueryRepresentable {
    /// The group's struct.
    associatedtype WrappedSelection: QuerySelection
}

extension Optional: OptionalQuerySelection where Wrapped: QuerySelection {
    public typealias WrappedSelection = Wrapped
}
