/// Makes a struct a ``Table``. The table name defaults to the type name with its first letter
/// lowercased (`Note` → `note`); pass a name to choose another.
@attached(extension, conformances: Table, names: named(tableName), named(columnNames))
public macro Table(_ name: String? = nil) = #externalMacro(module: "BoutiqueMacros", type: "TableMacro")
