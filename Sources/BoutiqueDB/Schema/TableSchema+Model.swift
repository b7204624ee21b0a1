extension TableSchema {
    /// What the `@Table` model `model` expects of its table: each stored column with its SQL type and
    /// nullability. Generated columns are left out (they are computed, not declared by migrations alike).
    ///
    /// ```swift
    /// let differences = try await db.schemaDifferences(models: [Note.self, Tag.self])
    /// ```
    public init(model: any Table.Type) {
        self.init(
            model.tableName,
            columns: model.schema.filter(\.isWritable).map {
                Column($0.name, type: $0.sqlType.rawValue, isNotNull: !$0.isNullable)
            })
    }
}

extension BoutiqueDB {
    /// How the database's tables differ from what the `@Table` models expect; reads only, never changes
    /// anything. Meant for tests and debug builds: after the migrations ran, an empty list says the
    /// models and the schema agree.
    ///
    /// ```swift
    /// assert(try await db.schemaDifferences(models: [Note.self]).isEmpty)
    /// ```
    public func schemaDifferences(models: [any Table.Type]) async throws -> [SchemaDifference] {
        try await schemaDifferences(expected: models.map { TableSchema(model: $0) })
    }
}
