import SwiftSyntax

/// The Swift source `@Table` generates for one struct, member by member.
///
/// ```swift
/// let expansion = TableExpansion(typeName: "Note", tableName: "note", schema: schema, access: "")
/// expansion.body   // TableColumns, Columns, columns, tableName, init(decoder:), encodeColumns(into:), Draft
/// ```
struct TableExpansion {
    let typeName: String
    let tableName: String
    let schema: ModelSchema
    /// `"public "`, `"package "` or `""`.
    let access: String

    /// Every member of the extension, in order, indented one level.
    var body: String {
        var writer = SourceWriter(indentation: 1)
        writeColumns(&writer)
        writeSelectionColumns(&writer)
        writer.line("\(access)static var columns: TableColumns { TableColumns() }")
        writer.line("\(access)static var tableName: String { \(StringLiteral.quoted(tableName)) }")
        writeDecodingInit(&writer)
        writeEncodingMethod(&writer)
        if schema.primaryKey != nil { writeDraft(&writer) }
        return writer.text
    }

    private func writeColumns(_ writer: inout SourceWriter) {
        let key = schema.primaryKey
        let definition = key == nil ? "TableDefinition" : "PrimaryKeyedTableDefinition"
        writer.line("\(access)struct TableColumns: BoutiqueQueries.\(definition) {")
        writer.indented { writer in
            writer.line("\(access)typealias Root = \(typeName)")
            if let key { writer.line("\(access)typealias PrimaryKey = \(key.representation)") }
            // Computed, with their type written out: nothing to store, and the declarations are checked
            // without looking at their bodies.
            for column in schema.columns {
                if Self.mayBeGroup(column) || Self.mayBeOptionalGroup(column) {
                    // A type the text does not tell from a group of columns (a `@Selection` struct):
                    // the overload `handle` resolves to decides, a `TableColumn` or a `ColumnGroup`.
                    writer.line(
                        "\(access)let \(column.swiftName) = \(columnType(column.representation)).handle(\(StringLiteral.quoted(column.sqlName)))")
                } else {
                    writer.line(
                        "\(access)var \(column.swiftName): \(columnType(column.representation)) { .init(\(StringLiteral.quoted(column.sqlName))) }")
                }
            }
            if let key {
                writer.line("\(access)var primaryKey: \(columnType(key.representation)) { \(key.swiftName) }")
            }
            // Built by a function: its body is type-checked once, not again when the module interface
            // is emitted.
            writer.line("\(access)static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()")
            writer.line("private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {")
            writer.indented { writer in
                // A field that groups columns (a `@Selection` struct) stands for them in the list.
                writer.line("BoutiqueQueries.ColumnSchema.flattened([")
                writer.indented { writer in
                    for column in schema.columns { writer.line("BoutiqueQueries.ColumnSchema(\(schemaArguments(column))),") }
                }
                writer.line("])")
            }
            writer.line("}")
            writer.line("\(access)init() {}")
        }
        writer.line("}")
    }

    /// `Columns`: one expression per column, which a select builds a row of the table from (a view's
    /// select, or a common table expression's). Its initializer takes each column's expression in order;
    /// nothing is stored but the list's SQL, so the struct costs the compiler one initializer.
    private func writeSelectionColumns(_ writer: inout SourceWriter) {
        var parameters = ""
        var fragments = ""
        for column in schema.columns {
            if !parameters.isEmpty {
                parameters += ", "
                fragments += ", "
            }
            parameters += "\(column.swiftName): some BoutiqueQueries.QueryExpression<\(column.representation)>"
            if Self.mayBeOptionalGroup(column), column.property.hasImplicitNilDefault {
                // NULL in each column when the type is a group of columns, one bound NULL otherwise.
                parameters += " = BoutiqueQueries.SQLExpression<\(column.representation)>.nullColumns"
            } else if let value = Self.defaultArgument(column) {
                parameters += " = BoutiqueQueries.SQLExpression<\(column.representation)>(bound: \(value))"
            }
            fragments += "\(column.swiftName).queryFragment"
        }
        writer.line("\(access)struct Columns: BoutiqueQueries.QueryExpression, Sendable {")
        writer.indented { writer in
            writer.line("\(access)typealias QueryValue = \(typeName)")
            writer.line("\(access)let queryFragment: BoutiqueQueries.QueryFragment")
            writer.line("\(access)init(\(parameters)) {")
            writer.indented { $0.line("self.queryFragment = [\(fragments)].joined(separator: \", \")") }
            writer.line("}")
        }
        writer.line("}")
    }

    /// The value a column of `Columns(…)` takes when it is left out: the property's default, bound as
    /// the column stores it, or `nil` for an optional `var` without one (as Swift's memberwise
    /// initializer leaves it out). A field that may group columns has none: its default is a row of
    /// several columns, which one bound value cannot stand for.
    static func defaultArgument(_ column: ModelColumn) -> String? {
        if mayBeGroup(column) { return nil }
        if let initializer = column.property.initializer { return initializer.trimmedDescription }
        return column.property.hasImplicitNilDefault ? "nil" : nil
    }

    private func schemaArguments(_ column: ModelColumn) -> String {
        var arguments = "\(StringLiteral.quoted(column.sqlName)), as: \(column.representation).self"
        if column.isPrimaryKey { arguments += ", primaryKey: true" }
        if let value = column.defaultValue { arguments += ", defaultValue: \(value)" }
        if let generated = column.generated { arguments += ", generated: \(generated.trimmedDescription)" }
        return arguments
    }

    private func writeDecodingInit(_ writer: inout SourceWriter) {
        writer.line("\(access)init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {")
        writer.indented { writer in
            for column in schema.columns {
                writer.line("self.\(column.swiftName) = try decoder.decode(\(column.representation).self)")
            }
        }
        writer.line("}")
    }

    private func writeEncodingMethod(_ writer: inout SourceWriter) {
        writer.line("\(access)func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {")
        writer.indented { writer in
            for column in schema.columns where column.isWritable {
                writer.line(Self.encodeCall(column.swiftName, valueType: column.valueType, representation: column.representation))
            }
        }
        writer.line("}")
    }

    /// The row without its key required, for tables with a primary key: left out, an integer key is
    /// assigned by SQLite (it is the rowid), and a UUID key is a fresh UUID.
    private func writeDraft(_ writer: inout SourceWriter) {
        let fields = schema.columns.filter(\.isWritable)
        writer.line("\(access)struct Draft: BoutiqueQueries.TableDraft {")
        writer.indented { writer in
            writer.line("\(access)typealias Root = \(typeName)")
            for column in fields {
                writer.line("\(access)var \(column.swiftName): \(draftType(column))")
            }
            var parameters = ""
            for column in fields {
                if !parameters.isEmpty { parameters += ", " }
                parameters += "\(column.swiftName): \(draftType(column))"
                if column.isPrimaryKey, !column.isOptional, Self.isUUID(column.valueType) {
                    // SQLite cannot make up a TEXT or BLOB key: a fresh UUID is what leaving it out means.
                    parameters += " = UUID()"
                } else if column.isPrimaryKey || column.isLazyInitializable || column.property.hasImplicitNilDefault {
                    parameters += " = nil"
                } else if let initializer = column.property.initializer {
                    parameters += " = \(initializer.trimmedDescription)"
                }
            }
            writer.line("\(access)init(\(parameters)) {")
            writer.indented { writer in
                for column in fields { writer.line("self.\(column.swiftName) = \(column.swiftName)") }
            }
            writer.line("}")
            // A stored row made a draft again (to edit it in a form and write it back, or, its key set to
            // nil, to insert a copy), as StructuredQueries' `Draft(_:)` does: the key is kept, generated
            // columns are left out.
            writer.line("\(access)init(_ other: \(typeName)) {")
            writer.indented { writer in
                for column in fields { writer.line("self.\(column.swiftName) = other.\(column.swiftName)") }
            }
            writer.line("}")
            writer.line("\(access)func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {")
            writer.indented { writer in
                for column in fields {
                    let representation = (column.isPrimaryKey || column.isLazyInitializable) && !column.isOptional
                        ? Self.optional(column.representation) : column.representation
                    writer.line(Self.encodeCall(column.swiftName, valueType: draftType(column), representation: representation))
                }
            }
            writer.line("}")
        }
        writer.line("}")
    }

    /// The types `RowEncoder` has non-generic `encode(_:)` overloads for, optional or not.
    static let typesWithPlainEncode: Set<String> = ["Int", "Int64", "Double", "Bool", "String"]

    /// `encoder.encode(self.title)` when the value is a standard type stored as itself, which calls a
    /// non-generic overload; `encoder.encode(self.title, as: R.self)` otherwise. Both store the same;
    /// the plain call compiles to far less code than the generic one, and there is one per column.
    static func encodeCall(_ property: String, valueType: String, representation: String) -> String {
        let wrapped = representation.hasSuffix("?") ? String(representation.dropLast()) : representation
        if representation == valueType, typesWithPlainEncode.contains(wrapped) {
            return "encoder.encode(self.\(property))"
        }
        return "encoder.encode(self.\(property), as: \(representation).self)"
    }

    private func columnType(_ representation: String) -> String {
        "BoutiqueQueries.TableColumn<\(typeName), \(representation)>"
    }

    /// The Draft's type for a column: the key and the lazily initialized columns become optional.
    private func draftType(_ column: ModelColumn) -> String {
        (column.isPrimaryKey || column.isLazyInitializable) && !column.isOptional
            ? Self.optional(column.valueType) : column.valueType
    }

    /// The types stored in one column whatever else is declared: their handles are written out.
    static let singleColumnTypes: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "Double", "Float",
        "Bool", "String", "Date", "UUID", "Data", "[UInt8]", "Foundation.Date", "Foundation.UUID", "Foundation.Data",
        "Swift.Int", "Swift.Int64", "Swift.Double", "Swift.Bool", "Swift.String",
    ]

    /// `true` when the column's type may be a group of columns: stored as its own type (no `as:`), not
    /// optional (see ``mayBeOptionalGroup(_:)``) and not one of ``singleColumnTypes``.
    static func mayBeGroup(_ column: ModelColumn) -> Bool {
        column.representation == column.valueType && !column.isOptional && !column.valueType.hasSuffix("?")
            && !singleColumnTypes.contains(column.valueType)
    }

    /// `true` when the column's optional type may be an optional group of columns (`Timestamps?`):
    /// stored as its own type, and its wrapped type not one of ``singleColumnTypes``.
    static func mayBeOptionalGroup(_ column: ModelColumn) -> Bool {
        guard column.isOptional, column.representation == column.valueType, column.valueType.hasSuffix("?") else {
            return false
        }
        return !singleColumnTypes.contains(String(column.valueType.dropLast()))
    }

    /// `true` for `UUID` and `Foundation.UUID`.
    static func isUUID(_ type: String) -> Bool {
        type == "UUID" || type == "Foundation.UUID"
    }

    /// `T?`, with parentheses where the type would otherwise parse differently (`(any P)?`).
    static func optional(_ type: String) -> String {
        let needsParentheses = type.contains("->") || type.contains("&") || type.hasPrefix("any ")
            || type.hasPrefix("some ")
        return needsParentheses ? "(\(type))?" : type + "?"
    }
}
