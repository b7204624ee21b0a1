import Testing

/// The text `@DatabaseFunction` expands to: `$name`, and the function type it returns.
@Suite struct DatabaseFunctionExpansionTests {
    /// A function of one argument: the call in queries renders `"exclaim"(…)`; the call from SQLite
    /// reads the argument as a `String` column is read and writes the result as one is written.
    @Test func scalarFunction() {
        assertExpansion(
            """
            @DatabaseFunction
            func exclaim(_ text: String) -> String {
                text + "!"
            }
            """,
            expandedSource: #"""
            func exclaim(_ text: String) -> String {
                text + "!"
            }

            nonisolated var $exclaim: __macro_local_7exclaimfMu_ {
                __macro_local_7exclaimfMu_(exclaim(_:))
            }

            nonisolated struct __macro_local_7exclaimfMu_: BoutiqueQueries.ScalarDatabaseFunction {
                public let name = "exclaim"
                public let isDeterministic = false
                public let body: @Sendable (String) throws -> String
                public init(_ body: @escaping @Sendable (String) throws -> String) {
                    self.body = body
                }
                public var argumentCount: Int {
                    Self.columnCount(of: [String.self])
                }
                public func callAsFunction(_ text: some BoutiqueQueries.QueryExpression<String>) -> BoutiqueQueries.SQLExpression<String> {
                    BoutiqueQueries.SQLExpression(callFragment([text.queryFragment]))
                }
                public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                    let p0 = try arguments.decode(String.self)
                    return try String.encode(body(p0))
                }
            }
            """#
        )
    }

    /// A SQL name of its own, `isDeterministic:`, a throwing function, and a `nil` default, which
    /// becomes the representation's `none`; a public function gives public peers.
    @Test func nameDeterminismThrowsAndANilDefault() {
        assertExpansion(
            """
            @DatabaseFunction("current_date", isDeterministic: true)
            public func currentDate(_ format: String? = nil) throws -> Date? {
                nil
            }
            """,
            expandedSource: #"""
            public func currentDate(_ format: String? = nil) throws -> Date? {
                nil
            }

            public nonisolated var $currentDate: __macro_local_11currentDatefMu_ {
                __macro_local_11currentDatefMu_(currentDate(_:))
            }

            public nonisolated struct __macro_local_11currentDatefMu_: BoutiqueQueries.ScalarDatabaseFunction {
                public let name = "current_date"
                public let isDeterministic = true
                public let body: @Sendable (String?) throws -> Date?
                public init(_ body: @escaping @Sendable (String?) throws -> Date?) {
                    self.body = body
                }
                public var argumentCount: Int {
                    Self.columnCount(of: [String?.self])
                }
                public func callAsFunction(_ format: some BoutiqueQueries.QueryExpression<String?> = String?.none) -> BoutiqueQueries.SQLExpression<Date?> {
                    BoutiqueQueries.SQLExpression(callFragment([format.queryFragment]))
                }
                public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                    let p0 = try arguments.decode(String?.self)
                    return try Date?.encode(body(p0))
                }
            }
            """#
        )
    }

    /// Argument labels and default values carry over to `callAsFunction`; an argument without a name
    /// gets one.
    @Test func labelsAndDefaults() {
        assertExpansion(
            """
            @DatabaseFunction
            func concat(first: String = "", _ second: String, third _: Int) -> String {
                first + second
            }
            """,
            expandedSource: #"""
            func concat(first: String = "", _ second: String, third _: Int) -> String {
                first + second
            }

            nonisolated var $concat: __macro_local_6concatfMu_ {
                __macro_local_6concatfMu_(concat(first:_:third:))
            }

            nonisolated struct __macro_local_6concatfMu_: BoutiqueQueries.ScalarDatabaseFunction {
                public let name = "concat"
                public let isDeterministic = false
                public let body: @Sendable (String, String, Int) throws -> String
                public init(_ body: @escaping @Sendable (String, String, Int) throws -> String) {
                    self.body = body
                }
                public var argumentCount: Int {
                    Self.columnCount(of: [String.self, String.self, Int.self])
                }
                public func callAsFunction(first: some BoutiqueQueries.QueryExpression<String> = "", _ second: some BoutiqueQueries.QueryExpression<String>, third p2: some BoutiqueQueries.QueryExpression<Int>) -> BoutiqueQueries.SQLExpression<String> {
                    BoutiqueQueries.SQLExpression(callFragment([first.queryFragment, second.queryFragment, p2.queryFragment]))
                }
                public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                    let p0 = try arguments.decode(String.self)
                    let p1 = try arguments.decode(String.self)
                    let p2 = try arguments.decode(Int.self)
                    return try String.encode(body(p0, p1, p2))
                }
            }
            """#
        )
    }

    /// `as:` names the representation of each argument and of the result.
    @Test func representations() {
        assertExpansion(
            """
            @DatabaseFunction(as: ((Date.UnixTimeRepresentation, [String].JSONRepresentation) -> [String].JSONRepresentation).self)
            func stamp(_ date: Date, _ tags: [String]) -> [String] {
                tags
            }
            """,
            expandedSource: #"""
            func stamp(_ date: Date, _ tags: [String]) -> [String] {
                tags
            }

            nonisolated var $stamp: __macro_local_5stampfMu_ {
                __macro_local_5stampfMu_(stamp(_:_:))
            }

            nonisolated struct __macro_local_5stampfMu_: BoutiqueQueries.ScalarDatabaseFunction {
                public let name = "stamp"
                public let isDeterministic = false
                public let body: @Sendable (Date, [String]) throws -> [String]
                public init(_ body: @escaping @Sendable (Date, [String]) throws -> [String]) {
                    self.body = body
                }
                public var argumentCount: Int {
                    Self.columnCount(of: [Date.UnixTimeRepresentation.self, [String].JSONRepresentation.self])
                }
                public func callAsFunction(_ date: some BoutiqueQueries.QueryExpression<Date.UnixTimeRepresentation>, _ tags: some BoutiqueQueries.QueryExpression<[String].JSONRepresentation>) -> BoutiqueQueries.SQLExpression<[String].JSONRepresentation> {
                    BoutiqueQueries.SQLExpression(callFragment([date.queryFragment, tags.queryFragment]))
                }
                public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                    let p0 = try arguments.decode(Date.UnixTimeRepresentation.self)
                    let p1 = try arguments.decode([String].JSONRepresentation.self)
                    return try [String].JSONRepresentation.encode(body(p0, p1))
                }
            }
            """#
        )
    }

    /// A function returning nothing: SQL sees NULL.
    @Test func returningNothing() {
        assertExpansion(
            """
            @DatabaseFunction
            func log(_ message: String) {
            }
            """,
            expandedSource: #"""
            func log(_ message: String) {
            }

            nonisolated var $log: __macro_local_3logfMu_ {
                __macro_local_3logfMu_(log(_:))
            }

            nonisolated struct __macro_local_3logfMu_: BoutiqueQueries.ScalarDatabaseFunction {
                public let name = "log"
                public let isDeterministic = false
                public let body: @Sendable (String) throws -> Void
                public init(_ body: @escaping @Sendable (String) throws -> Void) {
                    self.body = body
                }
                public var argumentCount: Int {
                    Self.columnCount(of: [String.self])
                }
                public func callAsFunction(_ message: some BoutiqueQueries.QueryExpression<String>) -> BoutiqueQueries.SQLExpression<Void> {
                    BoutiqueQueries.SQLExpression(callFragment([message.queryFragment]))
                }
                public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                    let p0 = try arguments.decode(String.self)
                    try body(p0)
                    return .null
                }
            }
            """#
        )
    }

    /// A function of `some Sequence<Element>` is an aggregate: `step` reads one row, `invoke` the
    /// group; the call takes `distinct:`, `order:` and `filter:` as SQLite's aggregates do.
    @Test func aggregate() {
        assertExpansion(
            """
            @DatabaseFunction
            func mode(priority priorities: some Sequence<Priority?>) -> Priority? {
                nil
            }
            """,
            expandedSource: #"""
            func mode(priority priorities: some Sequence<Priority?>) -> Priority? {
                nil
            }

            nonisolated var $mode: __macro_local_4modefMu_ {
                __macro_local_4modefMu_ { mode(priority: $0) }
            }

            nonisolated struct __macro_local_4modefMu_: BoutiqueQueries.AggregateDatabaseFunction {
                public typealias Element = Priority?
                public let name = "mode"
                public let isDeterministic = false
                public let body: @Sendable ([Priority?]) throws -> Priority?
                public init(_ body: @escaping @Sendable ([Priority?]) throws -> Priority?) {
                    self.body = body
                }
                public var argumentCount: Int {
                    Self.columnCount(of: [Priority?.self])
                }
                public func callAsFunction(priority priorities: some BoutiqueQueries.QueryExpression<Priority?>, distinct: Bool = false, order: (some BoutiqueQueries.QueryOrdering)? = BoutiqueQueries.OrderingTerm?.none, filter: (some BoutiqueQueries.QueryExpression<Bool>)? = Bool?.none) -> BoutiqueQueries.SQLExpression<Priority?> {
                    BoutiqueQueries.SQLExpression(callFragment([priorities.queryFragment], distinct: distinct, order: order?.orderingFragment, filter: filter?.queryFragment))
                }
                public func step(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> Element {
                    let p0 = try arguments.decode(Priority?.self)
                    return p0
                }
                public func invoke(_ elements: [Element]) throws -> BoutiqueQueries.DatabaseValue {
                    return try Priority?.encode(body(elements))
                }
            }
            """#
        )
    }

    /// A sequence of tuples takes one argument per element; a throwing aggregate is called with `try`.
    /// `DISTINCT` takes one argument, so the call has no `distinct:`.
    @Test func aggregateOfSeveralArguments() {
        assertExpansion(
            """
            @DatabaseFunction
            func joined(_ rows: some Swift.Sequence<(String, separator: String)>) throws -> String {
                ""
            }
            """,
            expandedSource: #"""
            func joined(_ rows: some Swift.Sequence<(String, separator: String)>) throws -> String {
                ""
            }

            nonisolated var $joined: __macro_local_6joinedfMu_ {
                __macro_local_6joinedfMu_ { try joined($0) }
            }

            nonisolated struct __macro_local_6joinedfMu_: BoutiqueQueries.AggregateDatabaseFunction {
                public typealias Element = (String, separator: String)
                public let name = "joined"
                public let isDeterministic = false
                public let body: @Sendable ([(String, separator: String)]) throws -> String
                public init(_ body: @escaping @Sendable ([(String, separator: String)]) throws -> String) {
                    self.body = body
                }
                public var argumentCount: Int {
                    Self.columnCount(of: [String.self, String.self])
                }
                public func callAsFunction(_ p0: some BoutiqueQueries.QueryExpression<String>, separator: some BoutiqueQueries.QueryExpression<String>, order: (some BoutiqueQueries.QueryOrdering)? = BoutiqueQueries.OrderingTerm?.none, filter: (some BoutiqueQueries.QueryExpression<Bool>)? = Bool?.none) -> BoutiqueQueries.SQLExpression<String> {
                    BoutiqueQueries.SQLExpression(callFragment([p0.queryFragment, separator.queryFragment], distinct: false, order: order?.orderingFragment, filter: filter?.queryFragment))
                }
                public func step(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> Element {
                    let p0 = try arguments.decode(String.self)
                    let p1 = try arguments.decode(String.self)
                    return (p0, separator: p1)
                }
                public func invoke(_ elements: [Element]) throws -> BoutiqueQueries.DatabaseValue {
                    return try String.encode(body(elements))
                }
            }
            """#
        )
    }

    /// An aggregate's `as:` writes the sequence `any Sequence<…>`.
    @Test func aggregateRepresentations() {
        assertExpansion(
            """
            @DatabaseFunction(as: ((any Sequence<[String].JSONRepresentation>) -> [String].JSONRepresentation).self)
            func flattened(_ arrays: some Sequence<[String]>) -> [String] {
                arrays.flatMap { $0 }
            }
            """,
            expandedSource: #"""
            func flattened(_ arrays: some Sequence<[String]>) -> [String] {
                arrays.flatMap { $0 }
            }

            nonisolated var $flattened: __macro_local_9flattenedfMu_ {
                __macro_local_9flattenedfMu_ { flattened($0) }
            }

            nonisolated struct __macro_local_9flattenedfMu_: BoutiqueQueries.AggregateDatabaseFunction {
                public typealias Element = [String]
                public let name = "flattened"
                public let isDeterministic = false
                public let body: @Sendable ([[String]]) throws -> [String]
                public init(_ body: @escaping @Sendable ([[String]]) throws -> [String]) {
                    self.body = body
                }
                public var argumentCount: Int {
                    Self.columnCount(of: [[String].JSONRepresentation.self])
                }
                public func callAsFunction(_ arrays: some BoutiqueQueries.QueryExpression<[String].JSONRepresentation>, distinct: Bool = false, order: (some BoutiqueQueries.QueryOrdering)? = BoutiqueQueries.OrderingTerm?.none, filter: (some BoutiqueQueries.QueryExpression<Bool>)? = Bool?.none) -> BoutiqueQueries.SQLExpression<[String].JSONRepresentation> {
                    BoutiqueQueries.SQLExpression(callFragment([arrays.queryFragment], distinct: distinct, order: order?.orderingFragment, filter: filter?.queryFragment))
                }
                public func step(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> Element {
                    let p0 = try arguments.decode([String].JSONRepresentation.self)
                    return p0
                }
                public func invoke(_ elements: [Element]) throws -> BoutiqueQueries.DatabaseValue {
                    return try [String].JSONRepresentation.encode(body(elements))
                }
            }
            """#
        )
    }

    /// An aggregate returning nothing.
    @Test func aggregateReturningNothing() {
        assertExpansion(
            """
            @DatabaseFunction
            func check(_ values: some Sequence<Int>) throws {
            }
            """,
            expandedSource: #"""
            func check(_ values: some Sequence<Int>) throws {
            }

            nonisolated var $check: __macro_local_5checkfMu_ {
                __macro_local_5checkfMu_ { try check($0) }
            }

            nonisolated struct __macro_local_5checkfMu_: BoutiqueQueries.AggregateDatabaseFunction {
                public typealias Element = Int
                public let name = "check"
                public let isDeterministic = false
                public let body: @Sendable ([Int]) throws -> Void
                public init(_ body: @escaping @Sendable ([Int]) throws -> Void) {
                    self.body = body
                }
                public var argumentCount: Int {
                    Self.columnCount(of: [Int.self])
                }
                public func callAsFunction(_ values: some BoutiqueQueries.QueryExpression<Int>, distinct: Bool = false, order: (some BoutiqueQueries.QueryOrdering)? = BoutiqueQueries.OrderingTerm?.none, filter: (some BoutiqueQueries.QueryExpression<Bool>)? = Bool?.none) -> BoutiqueQueries.SQLExpression<Void> {
                    BoutiqueQueries.SQLExpression(callFragment([values.queryFragment], distinct: distinct, order: order?.orderingFragment, filter: filter?.queryFragment))
                }
                public func step(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> Element {
                    let p0 = try arguments.decode(Int.self)
                    return p0
                }
                public func invoke(_ elements: [Element]) throws -> BoutiqueQueries.DatabaseValue {
                    try body(elements)
                    return .null
                }
            }
            """#
        )
    }

    /// A computed property is a function without arguments that is itself an expression.
    @Test func computedProperty() {
        assertExpansion(
            """
            @DatabaseFunction
            var now: Date {
                Date()
            }
            """,
            expandedSource: #"""
            var now: Date {
                Date()
            }

            nonisolated var $now: __macro_local_3nowfMu_ {
                __macro_local_3nowfMu_ { now }
            }

            nonisolated struct __macro_local_3nowfMu_: BoutiqueQueries.ScalarDatabaseFunction, BoutiqueQueries.QueryExpression {
                public typealias QueryValue = Date
                public let name = "now"
                public let isDeterministic = false
                public let body: @Sendable () throws -> Date
                public init(_ body: @escaping @Sendable () throws -> Date) {
                    self.body = body
                }
                public var argumentCount: Int {
                    0
                }
                public var queryFragment: BoutiqueQueries.QueryFragment {
                    callFragment([])
                }
                public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                    return try Date.encode(body())
                }
            }
            """#
        )
    }

    /// A property's `as:` names its result's representation; a throwing getter is called with `try`.
    @Test func computedPropertyRepresentation() {
        assertExpansion(
            """
            @DatabaseFunction(as: Date.UnixTimeRepresentation.self)
            var now: Date {
                get throws { Date() }
            }
            """,
            expandedSource: #"""
            var now: Date {
                get throws { Date() }
            }

            nonisolated var $now: __macro_local_3nowfMu_ {
                __macro_local_3nowfMu_ { try now }
            }

            nonisolated struct __macro_local_3nowfMu_: BoutiqueQueries.ScalarDatabaseFunction, BoutiqueQueries.QueryExpression {
                public typealias QueryValue = Date.UnixTimeRepresentation
                public let name = "now"
                public let isDeterministic = false
                public let body: @Sendable () throws -> Date
                public init(_ body: @escaping @Sendable () throws -> Date) {
                    self.body = body
                }
                public var argumentCount: Int {
                    0
                }
                public var queryFragment: BoutiqueQueries.QueryFragment {
                    callFragment([])
                }
                public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                    return try Date.UnixTimeRepresentation.encode(body())
                }
            }
            """#
        )
    }

    /// Static members give static `$` properties.
    @Test func staticMembers() {
        assertExpansion(
            """
            enum Functions {
                @DatabaseFunction
                static func reversed(_ text: String) -> String {
                    String(text.reversed())
                }
                @DatabaseFunction
                static var now: Date { Date() }
            }
            """,
            expandedSource: #"""
            enum Functions {
                static func reversed(_ text: String) -> String {
                    String(text.reversed())
                }

                static nonisolated var $reversed: __macro_local_8reversedfMu_ {
                    __macro_local_8reversedfMu_(reversed(_:))
                }

                nonisolated struct __macro_local_8reversedfMu_: BoutiqueQueries.ScalarDatabaseFunction {
                    public let name = "reversed"
                    public let isDeterministic = false
                    public let body: @Sendable (String) throws -> String
                    public init(_ body: @escaping @Sendable (String) throws -> String) {
                        self.body = body
                    }
                    public var argumentCount: Int {
                        Self.columnCount(of: [String.self])
                    }
                    public func callAsFunction(_ text: some BoutiqueQueries.QueryExpression<String>) -> BoutiqueQueries.SQLExpression<String> {
                        BoutiqueQueries.SQLExpression(callFragment([text.queryFragment]))
                    }
                    public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                        let p0 = try arguments.decode(String.self)
                        return try String.encode(body(p0))
                    }
                }
                static var now: Date { Date() }

                static nonisolated var $now: __macro_local_3nowfMu_ {
                    __macro_local_3nowfMu_ { now }
                }

                nonisolated struct __macro_local_3nowfMu_: BoutiqueQueries.ScalarDatabaseFunction, BoutiqueQueries.QueryExpression {
                    public typealias QueryValue = Date
                    public let name = "now"
                    public let isDeterministic = false
                    public let body: @Sendable () throws -> Date
                    public init(_ body: @escaping @Sendable () throws -> Date) {
                        self.body = body
                    }
                    public var argumentCount: Int {
                        0
                    }
                    public var queryFragment: BoutiqueQueries.QueryFragment {
                        callFragment([])
                    }
                    public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                        return try Date.encode(body())
                    }
                }
            }
            """#
        )
    }

    /// A method of a value is called on `self`, which the function keeps.
    @Test func methodsOfAValue() {
        assertExpansion(
            """
            struct Greeter: Sendable {
                let greeting: String
                @DatabaseFunction
                func greet(_ name: String) -> String {
                    greeting + name
                }
                @DatabaseFunction
                func total(_ values: some Sequence<Int>) -> Int { 0 }
            }
            """,
            expandedSource: #"""
            struct Greeter: Sendable {
                let greeting: String
                func greet(_ name: String) -> String {
                    greeting + name
                }

                nonisolated var $greet: __macro_local_5greetfMu_ {
                    __macro_local_5greetfMu_(self.greet(_:))
                }

                nonisolated struct __macro_local_5greetfMu_: BoutiqueQueries.ScalarDatabaseFunction {
                    public let name = "greet"
                    public let isDeterministic = false
                    public let body: @Sendable (String) throws -> String
                    public init(_ body: @escaping @Sendable (String) throws -> String) {
                        self.body = body
                    }
                    public var argumentCount: Int {
                        Self.columnCount(of: [String.self])
                    }
                    public func callAsFunction(_ name: some BoutiqueQueries.QueryExpression<String>) -> BoutiqueQueries.SQLExpression<String> {
                        BoutiqueQueries.SQLExpression(callFragment([name.queryFragment]))
                    }
                    public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                        let p0 = try arguments.decode(String.self)
                        return try String.encode(body(p0))
                    }
                }
                func total(_ values: some Sequence<Int>) -> Int { 0 }

                nonisolated var $total: __macro_local_5totalfMu_ {
                    __macro_local_5totalfMu_ { self.total($0) }
                }

                nonisolated struct __macro_local_5totalfMu_: BoutiqueQueries.AggregateDatabaseFunction {
                    public typealias Element = Int
                    public let name = "total"
                    public let isDeterministic = false
                    public let body: @Sendable ([Int]) throws -> Int
                    public init(_ body: @escaping @Sendable ([Int]) throws -> Int) {
                        self.body = body
                    }
                    public var argumentCount: Int {
                        Self.columnCount(of: [Int.self])
                    }
                    public func callAsFunction(_ values: some BoutiqueQueries.QueryExpression<Int>, distinct: Bool = false, order: (some BoutiqueQueries.QueryOrdering)? = BoutiqueQueries.OrderingTerm?.none, filter: (some BoutiqueQueries.QueryExpression<Bool>)? = Bool?.none) -> BoutiqueQueries.SQLExpression<Int> {
                        BoutiqueQueries.SQLExpression(callFragment([values.queryFragment], distinct: distinct, order: order?.orderingFragment, filter: filter?.queryFragment))
                    }
                    public func step(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> Element {
                        let p0 = try arguments.decode(Int.self)
                        return p0
                    }
                    public func invoke(_ elements: [Element]) throws -> BoutiqueQueries.DatabaseValue {
                        return try Int.encode(body(elements))
                    }
                }
            }
            """#
        )
    }

    /// A method of a class is called on a weak `self`: a function added to a database does not keep
    /// its object alive, and a call after the object is gone fails the statement.
    @Test func methodsOfAClass() {
        assertExpansion(
            """
            final class Log: Sendable {
                @DatabaseFunction
                func record(_ value: String, at time: Date) throws {
                }
                @DatabaseFunction
                func count(_ values: some Sequence<Int>) -> Int { 0 }
                @DatabaseFunction
                var name: String { "log" }
            }
            """,
            expandedSource: #"""
            final class Log: Sendable {
                func record(_ value: String, at time: Date) throws {
                }

                nonisolated var $record: __macro_local_6recordfMu_ {
                    __macro_local_6recordfMu_ { [weak self] p0, p1 in
                        guard let self else { throw BoutiqueQueries.DatabaseFunctionDeallocated() }
                        return try self.record(p0, at: p1)
                    }
                }

                nonisolated struct __macro_local_6recordfMu_: BoutiqueQueries.ScalarDatabaseFunction {
                    public let name = "record"
                    public let isDeterministic = false
                    public let body: @Sendable (String, Date) throws -> Void
                    public init(_ body: @escaping @Sendable (String, Date) throws -> Void) {
                        self.body = body
                    }
                    public var argumentCount: Int {
                        Self.columnCount(of: [String.self, Date.self])
                    }
                    public func callAsFunction(_ value: some BoutiqueQueries.QueryExpression<String>, at time: some BoutiqueQueries.QueryExpression<Date>) -> BoutiqueQueries.SQLExpression<Void> {
                        BoutiqueQueries.SQLExpression(callFragment([value.queryFragment, time.queryFragment]))
                    }
                    public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                        let p0 = try arguments.decode(String.self)
                        let p1 = try arguments.decode(Date.self)
                        try body(p0, p1)
                        return .null
                    }
                }
                func count(_ values: some Sequence<Int>) -> Int { 0 }

                nonisolated var $count: __macro_local_5countfMu_ {
                    __macro_local_5countfMu_ { [weak self] elements in
                        guard let self else { throw BoutiqueQueries.DatabaseFunctionDeallocated() }
                        return self.count(elements)
                    }
                }

                nonisolated struct __macro_local_5countfMu_: BoutiqueQueries.AggregateDatabaseFunction {
                    public typealias Element = Int
                    public let name = "count"
                    public let isDeterministic = false
                    public let body: @Sendable ([Int]) throws -> Int
                    public init(_ body: @escaping @Sendable ([Int]) throws -> Int) {
                        self.body = body
                    }
                    public var argumentCount: Int {
                        Self.columnCount(of: [Int.self])
                    }
                    public func callAsFunction(_ values: some BoutiqueQueries.QueryExpression<Int>, distinct: Bool = false, order: (some BoutiqueQueries.QueryOrdering)? = BoutiqueQueries.OrderingTerm?.none, filter: (some BoutiqueQueries.QueryExpression<Bool>)? = Bool?.none) -> BoutiqueQueries.SQLExpression<Int> {
                        BoutiqueQueries.SQLExpression(callFragment([values.queryFragment], distinct: distinct, order: order?.orderingFragment, filter: filter?.queryFragment))
                    }
                    public func step(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> Element {
                        let p0 = try arguments.decode(Int.self)
                        return p0
                    }
                    public func invoke(_ elements: [Element]) throws -> BoutiqueQueries.DatabaseValue {
                        return try Int.encode(body(elements))
                    }
                }
                var name: String { "log" }

                nonisolated var $name: __macro_local_4namefMu_ {
                    __macro_local_4namefMu_ { [weak self] in
                        guard let self else { throw BoutiqueQueries.DatabaseFunctionDeallocated() }
                        return self.name
                    }
                }

                nonisolated struct __macro_local_4namefMu_: BoutiqueQueries.ScalarDatabaseFunction, BoutiqueQueries.QueryExpression {
                    public typealias QueryValue = String
                    public let name = "name"
                    public let isDeterministic = false
                    public let body: @Sendable () throws -> String
                    public init(_ body: @escaping @Sendable () throws -> String) {
                        self.body = body
                    }
                    public var argumentCount: Int {
                        0
                    }
                    public var queryFragment: BoutiqueQueries.QueryFragment {
                        callFragment([])
                    }
                    public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                        return try String.encode(body())
                    }
                }
            }
            """#
        )
    }

    /// A `nonisolated` method of an actor.
    @Test func nonisolatedMethodOfAnActor() {
        assertExpansion(
            """
            actor Counter {
                @DatabaseFunction
                nonisolated func double(_ value: Int) -> Int { value * 2 }
            }
            """,
            expandedSource: #"""
            actor Counter {
                nonisolated func double(_ value: Int) -> Int { value * 2 }

                nonisolated var $double: __macro_local_6doublefMu_ {
                    __macro_local_6doublefMu_(self.double(_:))
                }

                nonisolated struct __macro_local_6doublefMu_: BoutiqueQueries.ScalarDatabaseFunction {
                    public let name = "double"
                    public let isDeterministic = false
                    public let body: @Sendable (Int) throws -> Int
                    public init(_ body: @escaping @Sendable (Int) throws -> Int) {
                        self.body = body
                    }
                    public var argumentCount: Int {
                        Self.columnCount(of: [Int.self])
                    }
                    public func callAsFunction(_ value: some BoutiqueQueries.QueryExpression<Int>) -> BoutiqueQueries.SQLExpression<Int> {
                        BoutiqueQueries.SQLExpression(callFragment([value.queryFragment]))
                    }
                    public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                        let p0 = try arguments.decode(Int.self)
                        return try Int.encode(body(p0))
                    }
                }
            }
            """#
        )
    }

    /// `@available` and the access level carry over to the peers; an escaped name keeps its backticks
    /// in Swift and loses them in SQL.
    @Test func availabilityAccessAndEscapedNames() {
        assertExpansion(
            """
            @available(macOS 15, *)
            @DatabaseFunction
            private func `default`() -> Int {
                42
            }
            """,
            expandedSource: #"""
            @available(macOS 15, *)
            private func `default`() -> Int {
                42
            }

            @available(macOS 15, *) private nonisolated var $default: __macro_local_7defaultfMu_ {
                __macro_local_7defaultfMu_(`default`)
            }

            @available(macOS 15, *) private nonisolated struct __macro_local_7defaultfMu_: BoutiqueQueries.ScalarDatabaseFunction {
                public let name = "default"
                public let isDeterministic = false
                public let body: @Sendable () throws -> Int
                public init(_ body: @escaping @Sendable () throws -> Int) {
                    self.body = body
                }
                public var argumentCount: Int {
                    0
                }
                public func callAsFunction() -> BoutiqueQueries.SQLExpression<Int> {
                    BoutiqueQueries.SQLExpression(callFragment([]))
                }
                public func invoke(_ arguments: inout BoutiqueQueries.RowDecoder) throws -> BoutiqueQueries.DatabaseValue {
                    return try Int.encode(body())
                }
            }
            """#
        )
    }
}
