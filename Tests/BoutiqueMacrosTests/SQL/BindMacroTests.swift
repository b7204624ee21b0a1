import Testing

/// What `#bind` expands to: the value bound through `SQLExpression(bound:)`, with `as:` passed on.
@Suite struct BindMacroTests {
    @Test func expandsToABoundExpression() {
        assertExpansion(
            """
            let a = #bind(["garden", "shed"])
            let b = #bind(deadline, as: Date.ISO8601Representation.self)
            """,
            expandedSource: """
            let a = BoutiqueQueries.SQLExpression(bound: ["garden", "shed"])
            let b = BoutiqueQueries.SQLExpression(bound: deadline, as: Date.ISO8601Representation.self)
            """
        )
    }
}
