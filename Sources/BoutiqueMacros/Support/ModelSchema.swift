import SwiftDiagnostics
import SwiftSyntax

/// The columns of a `@Table` or `@Selection` struct, read from its stored properties, and what is wrong
/// with them.
///
/// ```swift
/// let schema = ModelSchema(reading: structDecl, as: .table)
/// schema.columns.map(\.sqlName)     // ["id", "title", …]
/// schema.primaryKey?.sqlName        // "id"
/// ```
struct ModelSchema {
    /// What the struct is read as: table columns have keys and defaults; selection fields only names,
    /// types, representations and whether they are generated.
    enum Kind {
        case table, selection

        var macroName: String { self == .table ? "@Table" : "@Selection" }
    }

    private(set) var columns: [ModelColumn] = []
    private(set) var diagnostics = DiagnosticList()

    /// Replaces each column's Swift type and representation with `transform`'s text for it.
    mutating func renameTypes(_ transform: (String) -> String) {
        for index in columns.indices {
            columns[index].valueType = transform(columns[index].valueType)
            columns[index].representation = transform(columns[index].representation)
        }
    }

    /// The primary key column, if the struct has one.
    var primaryKey: ModelColumn? { columns.first { $0.isPrimaryKey } }

    init(reading structDecl: StructDeclSyntax, as kind: Kind) {
        var unsupported: [PatternBindingSyntax] = []
        let collectionsAreJSON = kind == .selection && JSONPathMembersExpansion.isDeclaredCodable(structDecl)
        for property in StoredProperty.all(in: structDecl.memberBlock, unsupported: &unsupported) {
            if let column = readColumn(property, kind: kind, collectionsAreJSON: collectionsAreJSON) { columns.append(column) }
        }
        for binding in unsupported {
            diagnostics.add(
                binding.pattern,
                .error("unsupportedPattern", "\(kind.macroName) reads one column per property; declare each separately"))
        }
        if kind == .table {
            choosePrimaryKey()
            checkLazyInitializableColumns()
        }
        checkDuplicateNames()
        if columns.isEmpty, !diagnostics.hasErrors {
            diagnostics.add(
                structDecl.name,
                .error("noColumns", "'\(structDecl.name.text)' has no stored properties for \(kind.macroName) to read"))
        }
    }

    private mutating func readColumn(_ property: StoredProperty, kind: Kind, collectionsAreJSON: Bool) -> ModelColumn? {
        if property.ephemeralAttribute != nil { return nil }
        let attribute = property.columnAttribute
        let options = attribute.map(ColumnOptions.init) ?? ColumnOptions()
        guard let type = property.type.map(Self.normalized) ?? property.initializer.flatMap(TypeText.inferred) else {
            diagnostics.add(
                property.binding.pattern,
                .error(
                    "missingType",
                    "add a type annotation to '\(property.name)': \(kind.macroName) reads each column's type from its declaration"))
            return nil
        }
        if property.isLet, property.initializer != nil {
            diagnostics.add(
                property.declaration.bindingSpecifier,
                .error(
                    "letWithInitialValue",
                    "'\(property.name)' is a 'let' with an initial value, so it cannot be read from a row; make it a 'var', or mark it @Ephemeral if it is not a column"),
                fixIts: [FixIts.replaceLetWithVar(property.declaration), FixIts.markEphemeral(property.declaration)])
            return nil
        }
        let isOptional = property.type.map(TypeText.isOptional) ?? false
        var representation = type
        if let explicit = options.representation {
            representation = isOptional && !TypeText.isOptional(text: explicit) ? explicit + "?" : explicit
        } else if collectionsAreJSON, let collection = TypeText.jsonCollection(type) {
            // A `Codable` selection's array or dictionary field (`var links: [Link]`, as JSON paths
            // read it) is a JSON column unless it says otherwise: a document nests its arrays.
            representation = "BoutiqueQueries.JSONRepresentation<\(collection)>" + (isOptional ? "?" : "")
        }
        // A selection keeps `generated:` too: stored as a group of a table's columns, its generated
        // field is a generated column of the table, read but never written.
        let generated = options.generated
        var defaultValue: String?
        if kind == .table, options.representation == nil, generated == nil, let initializer = property.initializer {
            defaultValue = LiteralDefault.databaseValue(for: initializer)
        }
        var column = ModelColumn(
            property: property, sqlName: kind == .table ? options.name ?? property.name : property.name,
            valueType: type, representation: representation, isOptional: isOptional, generated: generated,
            defaultValue: defaultValue, anchor: attribute.map(Syntax.init) ?? Syntax(property.binding.pattern))
        column.isPrimaryKey = kind == .table && options.primaryKey == true && generated == nil
        column.isLazyInitializable = kind == .table && options.lazyInitializable == true && !isOptional && generated == nil
        return column
    }

    /// An explicit `primaryKey: true` wins; otherwise a column named `id` is the key unless it opts out.
    private mutating func choosePrimaryKey() {
        let explicit = columns.indices.filter { columns[$0].isPrimaryKey }
        if let first = explicit.first {
            for index in explicit.dropFirst() {
                columns[index].isPrimaryKey = false
                let attribute = columns[index].property.columnAttribute
                diagnostics.add(
                    columns[index].anchor,
                    .error(
                        "duplicatePrimaryKey",
                        "'\(columns[index].property.name)' cannot be a second primary key: '\(columns[first].property.name)' is already the primary key"),
                    fixIts: attribute.map { [FixIts.removeArgument("primaryKey", from: $0)] } ?? [])
            }
            return
        }
        if let index = columns.firstIndex(where: { $0.property.name == "id" }), columns[index].isWritable,
            columns[index].property.columnAttribute.map({ ColumnOptions($0).primaryKey != false }) ?? true
        {
            columns[index].isPrimaryKey = true
        }
    }

    /// `lazyInitializable:` makes a column optional in the `Draft`, which only a table with a primary
    /// key has here.
    private mutating func checkLazyInitializableColumns() {
        guard primaryKey == nil else { return }
        for index in columns.indices where columns[index].isLazyInitializable {
            columns[index].isLazyInitializable = false
            diagnostics.add(
                columns[index].anchor,
                .error(
                    "lazyInitializableWithoutPrimaryKey",
                    "'lazyInitializable:' makes '\(columns[index].property.name)' optional in the table's Draft, and only a table with a primary key has a Draft"))
        }
    }

    private mutating func checkDuplicateNames() {
        var seen: Set<String> = []
        for column in columns where !seen.insert(column.sqlName.lowercased()).inserted {
            diagnostics.add(
                column.anchor,
                .error("duplicateColumnName", "two columns are named '\(column.sqlName)'; SQL names are case-insensitive"))
        }
    }

    /// `Int!` → `Int?`: the type as it can appear as a generic argument.
    private static func normalized(_ type: TypeSyntax) -> String {
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return unwrapped.wrappedType.trimmedDescription + "?"
        }
        return type.trimmedDescription
    }
}
