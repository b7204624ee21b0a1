/// The Swift source `@Table` generates for one struct, member by member.
///
/// ```swift
/// let expansion = TableExpansion(typeName: "Note", tableName: "note", schema: schema, access: "")
/// expansion.members   // TableColumns, columns, tableName, init(decoder:), encodeColumns(into:), Draft
/// ```
struct TableExpansion {
    let typeName: String
    let tableName: String
    let schema: ModelSchema
    /// `"public "`, `"package "` or `""`.
    let access: String

    /// Every member of the extension, in order.
    var members: [String] {
        var members = [
            columnsStruct,
            "\(access)static var columns: TableColumns { TableColumns() }",
            "\(access)static var tableName: String { \(StringLiteral.quoted(tableName)) }",
            decodingInit,
            encodingMethod,
        ]
        if let draft = draftStruct { members.append(draft) }
        return members
    }

    private var columnsStruct: String {
        let key = schema.primaryKey
        var lines = [
            "\(access)struct TableColumns: BoutiqueQueries.\(key == nil ? "TableDefinition" : "PrimaryKeyedTableDefinition") {",
            "    \(access)typealias Root = \(typeName)",
        ]
        if let key { lines.append("    \(access)typealias PrimaryKey = \(key.representation)") }
        // Computed, with their type written out: nothing to store, and the declarations are checked
        // without looking at their bodies.
        for column in schema.columns {
            let type = columnType(column.representation)
            lines.append(
                "    \(access)var \(column.swiftName): \(type) { .init(\(StringLiteral.quoted(column.sqlName))) }")
        }
        if let key {
            lines.append("    \(access)var primaryKey: \(columnType(key.representation)) { \(key.swiftName) }")
        }
        // Built by a function: its body is type-checked once, not again when the module interface is emitted.
        lines += [
            "    \(access)static let allColumns: [BoutiqueQueries.ColumnSchema] = makeAllColumns()",
            "    private static func makeAllColumns() -> [BoutiqueQueries.ColumnSchema] {",
            "        [",
        ]
        for column in schema.columns {
            var arguments = "\(StringLiteral.quoted(column.sqlName)), as: \(column.representation).self"
            if column.isPrimaryKey { arguments += ", primaryKey: true" }
            if let value = column.defaultValue { arguments += ", defaultValue: \(value)" }
            if let generated = column.generated { arguments += ", generated: \(generated.trimmedDescription)" }
            lines.append("            BoutiqueQueries.ColumnSchema(\(arguments)),")
        }
        lines += ["        ]", "    }", "    \(access)init() {}", "}"]
        return lines.joined(separator: "\n")
    }

    private var decodingInit: String {
        var lines = [
            "\(access)init(decoder: inout BoutiqueQueries.RowDecoder) throws(BoutiqueQueries.BoutiqueError) {"
        ]
        for column in schema.columns {
            lines.append("    self.\(column.swiftName) = try decoder.decode(\(column.representation).self)")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    private var encodingMethod: String {
        var lines = ["\(access)func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {"]
        for column in schema.columns where column.isWritable {
            lines.append("    encoder.encode(self.\(column.swiftName), as: \(column.representation).self)")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The row without its key required, for tables with a primary key.
    private var draftStruct: String? {
        guard schema.primaryKey != nil else { return nil }
        let fields = schema.columns.filter(\.isWritable)
        var lines = [
            "\(access)struct Draft: BoutiqueQueries.TableDraft {",
            "    \(access)typealias Root = \(typeName)",
        ]
        for column in fields {
            lines.append("    \(access)var \(column.swiftName): \(draftType(column))")
        }
        let parameters = fields.map { column in
            var parameter = "\(column.swiftName): \(draftType(column))"
            if column.isPrimaryKey || column.property.hasImplicitNilDefault {
                parameter += " = nil"
            } else if let initializer = column.property.initializer {
                parameter += " = \(initializer.trimmedDescription)"
            }
            return parameter
        }
        lines.append("    \(access)init(\(parameters.joined(separator: ", "))) {")
        for column in fields {
            lines.append("        self.\(column.swiftName) = \(column.swiftName)")
        }
        lines += ["    }", "    \(access)func encodeColumns(into encoder: inout BoutiqueQueries.RowEncoder) {"]
        for column in fields {
            let representation = column.isPrimaryKey && !column.isOptional
                ? Self.optional(column.representation) : column.representation
            lines.append("        encoder.encode(self.\(column.swiftName), as: \(representation).self)")
        }
        lines += ["    }", "}"]
        return lines.joined(separator: "\n")
    }

    private func columnType(_ representation: String) -> String {
        "BoutiqueQueries.TableColumn<\(typeName), \(representation)>"
    }

    /// The Draft's type for a column: the key becomes optional, the database assigns it.
    private func draftType(_ column: ModelColumn) -> String {
        column.isPrimaryKey && !column.isOptional ? Self.optional(column.valueType) : column.valueType
    }

    /// `T?`, with parentheses where the type would otherwise parse differently (`(any P)?`).
    static func optional(_ type: String) -> String {
        let needsParentheses = type.contains("->") || type.contains("&") || type.hasPrefix("any ")
            || type.hasPrefix("some ")
        return needsParentheses ? "(\(type))?" : type + "?"
    }
}
