import Testing

/// The text `@DatabaseFunction` expands to: `$name` and the function type it returns.
@Suite struct DatabaseFunctionExpansionTests {
    /// A function of one argument: the call in queries renders `"exclaim"(…)`, the call from SQLite
    /// reads the argument as a `String` column and writes the result as one.
    @Test func scalarFunction() {
        assertExpansion(
            """
            @DatabaseFunction
            func exclaim(_ text: String) -> String {
                text + "!"
            }
            """,
            expandedSource: """
            X
            """
        )
    }
}
