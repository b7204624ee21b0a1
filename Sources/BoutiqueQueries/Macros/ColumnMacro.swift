/// Describes one column of a ``Table(_:)``: its SQL name, representation, key and generation.
///
/// ```swift
/// @Table struct Event {
///     @Column(primaryKey: true) let code: String
///     @Column("starts_at", as: Date.ISO8601Representation.self) var startsAt: Date
///     @Column(generated: .virtual("lower(code)")) let lowerCode: String
///     @Column(generated: .stored) let endsAt: Date   // as the app's migration SQL computes it
/// }
/// ```
///
/// - Parameters:
///   - name: The SQL name; the property's name when `nil`.
///   - primaryKey: `true` for the primary key, `false` to keep a property named `id` from being it.
///   - generated: How a generated column is stored, with its expression or (`.virtual`, `.stored`)
///     without, when the app's SQL declares it; such columns are read but never written.
///   - lazyInitializable: `true` to make the column optional in the table's `Draft`, for a value the
///     database fills in when the draft leaves it `nil` (a default, or a trigger): the draft writes
///     NULL, which a column declared `NOT NULL ON CONFLICT REPLACE DEFAULT …` replaces with its
///     default. Only a table with a primary key has a `Draft`.
@attached(peer)
public macro Column(
    _ name: String? = nil,
    primaryKey: Bool? = nil,
    generated: GeneratedColumn? = nil,
    lazyInitializable: Bool? = nil
) = #externalMacro(module: "BoutiqueMacros", type: "ColumnMacro")

/// Describes one column of a ``Table(_:)`` stored with the representation `as`.
///
/// ```swift
/// @Column(as: JSONRepresentation<[String]>.self) var tags: [String]
/// @Column(as: Date.UnixTimeRepresentation.self) var deletedAt: Date?   // optional: NULL or a time
/// ```
///
/// For an optional property the representation may be written without `?`: it is made optional.
/// `lazyInitializable: true` makes the column optional in the table's `Draft`, as ``Column(_:primaryKey:generated:lazyInitializable:)`` describes.
@attached(peer)
public macro Column<Representation: QueryRepresentable>(
    _ name: String? = nil,
    as representation: Representation.Type,
    primaryKey: Bool? = nil,
    generated: GeneratedColumn? = nil,
    lazyInitializable: Bool? = nil
) = #externalMacro(module: "BoutiqueMacros", type: "ColumnMacro")
