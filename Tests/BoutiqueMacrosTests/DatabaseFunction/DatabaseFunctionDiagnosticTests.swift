import Testing

/// What `@DatabaseFunction` reports, where, and the fix-its it offers: SQL calls a database function
/// synchronously, from any of the database's connections, with one value per argument.
@Suite struct DatabaseFunctionDiagnosticTests {
    /// A struct is not a function: fix-it removes the attribute.
    @Test func notAFunction() {
        assertExpansion(
            """
            @DatabaseFunction
            struct NotAFunction {}
            """,
            expandedSource: #"""
            struct NotAFunction {}
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "@DatabaseFunction applies to a function or a computed property", line: 1, column: 1, fixIts: ["remove '@DatabaseFunction'"]),
            ],
            fixedSource: """
            struct NotAFunction {}
            """
        )
    }

    /// A stored property has nothing to call: fix-it removes the attribute.
    @Test func storedProperty() {
        assertExpansion(
            """
            struct S {
                @DatabaseFunction
                var stored: Int = 1
            }
            """,
            expandedSource: #"""
            struct S {
                var stored: Int = 1
            }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "@DatabaseFunction applies to a function or a computed property", line: 2, column: 5, fixIts: ["remove '@DatabaseFunction'"]),
            ],
            fixedSource: """
            struct S {
                var stored: Int = 1
            }
            """
        )
    }

    /// SQLite cannot wait: fix-it removes `async`.
    @Test func asyncFunction() {
        assertExpansion(
            """
            @DatabaseFunction
            func fetch(_ id: Int) async throws -> String {
                ""
            }
            """,
            expandedSource: #"""
            func fetch(_ id: Int) async throws -> String {
                ""
            }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "'fetch' is async, but SQLite calls a database function synchronously", line: 2, column: 23, fixIts: ["remove 'async'"]),
            ],
            fixedSource: """
            @DatabaseFunction
            func fetch(_ id: Int) throws -> String {
                ""
            }
            """
        )
    }

    /// A generic function has no single type SQL could call.
    @Test func genericFunction() {
        assertExpansion(
            """
            @DatabaseFunction
            func pick<T>(_ value: T) -> T {
                value
            }
            """,
            expandedSource: #"""
            func pick<T>(_ value: T) -> T {
                value
            }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "'pick' is generic, but SQL calls a database function with one concrete type per argument", line: 2, column: 10),
            ]
        )
    }

    /// SQL cannot receive a value back through an argument: fix-it removes `inout`.
    @Test func inoutParameter() {
        assertExpansion(
            """
            @DatabaseFunction
            func bump(_ value: inout Int) -> Int {
                value
            }
            """,
            expandedSource: #"""
            func bump(_ value: inout Int) -> Int {
                value
            }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "'inout' parameter 'value' cannot receive a value from SQL", line: 2, column: 20, fixIts: ["remove 'inout'"]),
            ],
            fixedSource: """
            @DatabaseFunction
            func bump(_ value: Int) -> Int {
                value
            }
            """
        )
    }

    /// SQL passes each argument separately, so a variadic parameter cannot receive them.
    @Test func variadicParameter() {
        assertExpansion(
            """
            @DatabaseFunction
            func sum(_ values: Int...) -> Int {
                0
            }
            """,
            expandedSource: #"""
            func sum(_ values: Int...) -> Int {
                0
            }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "variadic parameter 'values' cannot be a database function's: SQL passes each argument separately", line: 2, column: 23),
            ]
        )
    }

    /// Only an aggregate's sequence may be opaque.
    @Test func opaqueParameter() {
        assertExpansion(
            """
            @DatabaseFunction
            func describe(_ value: some CustomStringConvertible) -> String {
                ""
            }
            """,
            expandedSource: #"""
            func describe(_ value: some CustomStringConvertible) -> String {
                ""
            }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "'describe' is generic through 'some CustomStringConvertible', but SQL calls a database function with one concrete type per argument; only an aggregate's single 'some Sequence<Element>' parameter may be opaque", line: 2, column: 24),
            ]
        )
    }

    /// A database function cannot change the value it belongs to: fix-it removes `mutating`.
    @Test func mutatingMethod() {
        assertExpansion(
            """
            struct Counter {
                var count = 0
                @DatabaseFunction
                mutating func next() -> Int {
                    count += 1
                    return count
                }
            }
            """,
            expandedSource: #"""
            struct Counter {
                var count = 0
                mutating func next() -> Int {
                    count += 1
                    return count
                }
            }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "'next' is mutating, but a database function cannot change the value it belongs to", line: 4, column: 5, fixIts: ["remove 'mutating'"]),
            ],
            fixedSource: """
            struct Counter {
                var count = 0
                @DatabaseFunction
                func next() -> Int {
                    count += 1
                    return count
                }
            }
            """
        )
    }

    /// An actor's method waits for the actor, which SQLite cannot: fix-it marks it `nonisolated`.
    @Test func actorIsolatedMethod() {
        assertExpansion(
            """
            actor Counter {
                @DatabaseFunction
                func double(_ value: Int) -> Int { value * 2 }
            }
            """,
            expandedSource: #"""
            actor Counter {
                func double(_ value: Int) -> Int { value * 2 }
            }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "'double' is isolated to the actor, but SQLite calls a database function synchronously from the database's connections", line: 3, column: 5, fixIts: ["mark it 'nonisolated'"]),
            ],
            fixedSource: """
            actor Counter {
                @DatabaseFunction
                nonisolated func double(_ value: Int) -> Int { value * 2 }
            }
            """
        )
    }

    /// A protocol requirement has no body to call.
    @Test func protocolRequirement() {
        assertExpansion(
            """
            protocol Functions {
                @DatabaseFunction
                func double(_ value: Int) -> Int
            }
            """,
            expandedSource: #"""
            protocol Functions {
                func double(_ value: Int) -> Int
            }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "@DatabaseFunction applies to a function with a body, not to a protocol requirement", line: 2, column: 5),
            ]
        )
    }

    /// The name and `isDeterministic:` are read when compiling, so they must be literals.
    @Test func argumentsThatAreNotLiterals() {
        assertExpansion(
            """
            @DatabaseFunction(name, isDeterministic: flag)
            func double(_ value: Int) -> Int { value * 2 }
            """,
            expandedSource: #"""
            func double(_ value: Int) -> Int { value * 2 }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "the function's SQL name must be a non-empty string literal", line: 1, column: 19),
                ExpectedDiagnostic(message: "'isDeterministic:' must be 'true' or 'false'", line: 1, column: 42),
            ]
        )
    }

    /// An empty SQL name is refused.
    @Test func emptyName() {
        assertExpansion(
            """
            @DatabaseFunction("")
            func double(_ value: Int) -> Int { value * 2 }
            """,
            expandedSource: #"""
            func double(_ value: Int) -> Int { value * 2 }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "the function's SQL name must be a non-empty string literal", line: 1, column: 19),
            ]
        )
    }

    /// `as:` must take as many arguments as the function.
    @Test func representationOfAnotherArity() {
        assertExpansion(
            """
            @DatabaseFunction(as: ((Int, Int) -> Int).self)
            func double(_ value: Int) -> Int { value * 2 }
            """,
            expandedSource: #"""
            func double(_ value: Int) -> Int { value * 2 }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "the function type in 'as:' takes 2 arguments, but 'double' takes 1", line: 1, column: 23),
            ]
        )
    }

    /// A function's `as:` is a function type, not the result's type alone.
    @Test func functionWithAValueRepresentation() {
        assertExpansion(
            """
            @DatabaseFunction(as: Date.UnixTimeRepresentation.self)
            func now() -> Date { Date() }
            """,
            expandedSource: #"""
            func now() -> Date { Date() }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "'now' is a function: 'as:' takes its type with each representation, written '((Argument) -> Result).self'", line: 1, column: 23),
            ]
        )
    }

    /// A property's `as:` is a type, not a function type.
    @Test func propertyWithAFunctionRepresentation() {
        assertExpansion(
            """
            @DatabaseFunction(as: ((Int) -> Int).self)
            var now: Int { 1 }
            """,
            expandedSource: #"""
            var now: Int { 1 }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "'now' is a property: 'as:' takes its result's representation, written 'Representation.self'", line: 1, column: 23),
            ]
        )
    }

    /// `as:` must be written `Type.self`.
    @Test func representationThatIsNotAType() {
        assertExpansion(
            """
            @DatabaseFunction(as: makeType())
            func double(_ value: Int) -> Int { value * 2 }
            """,
            expandedSource: #"""
            func double(_ value: Int) -> Int { value * 2 }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "'as:' takes a type written as '((Argument) -> Result).self' or 'Result.self'", line: 1, column: 23),
            ]
        )
    }

    /// An async getter cannot be called from SQL either: fix-it removes `async`.
    @Test func asyncGetter() {
        assertExpansion(
            """
            @DatabaseFunction
            var now: Date {
                get async { Date() }
            }
            """,
            expandedSource: #"""
            var now: Date {
                get async { Date() }
            }
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "'now' is async, but SQLite calls a database function synchronously", line: 3, column: 9, fixIts: ["remove 'async'"]),
            ],
            fixedSource: """
            @DatabaseFunction
            var now: Date {
                get { Date() }
            }
            """
        )
    }

    /// A constant is not a function: fix-it removes the attribute.
    @Test func constant() {
        assertExpansion(
            """
            @DatabaseFunction
            let x = 1
            """,
            expandedSource: #"""
            let x = 1
            """#,
            diagnostics: [
                ExpectedDiagnostic(message: "@DatabaseFunction applies to a function or a computed property", line: 1, column: 1, fixIts: ["remove '@DatabaseFunction'"]),
            ],
            fixedSource: """
            let x = 1
            """
        )
    }
}
