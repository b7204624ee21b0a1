import BoutiqueQueries
import Foundation

/// Models declared with the real macros, for the runtime tests. Nested in a namespace so that their
/// names stay free for other tests of this module.
enum MacroModels {
    /// The product description's model, as its first migration creates it.
    @Table
    struct Note: Sendable, Equatable {
        @Column(primaryKey: true) let id: UUID
        var title: String
        var body: String
        var updatedAt: Date = Date()
    }

    /// The same table after the second migration added `isPinned`.
    @Table("note")
    struct PinnableNote: Sendable, Equatable {
        @Column(primaryKey: true) let id: UUID
        var title: String
        var body: String
        var updatedAt: Date = Date()
        var isPinned: Bool = false
    }

    /// Every column feature at once.
    @Table("note") @BoutiqueTable(strict: true, withoutRowID: true)
    struct RichNote: Sendable, Equatable {
        @Column(primaryKey: true) let id: UUID
        var title: String
        @Column("body_text") var body: String
        @Column(as: Date.ISO8601Representation.self) var createdAt: Date
        var updatedAt: Date = Date()
        var isPinned: Bool = false
        var rating: Int?
        @Column(generated: .virtual("lower(title)")) let titleLower: String
        @Ephemeral var isSelected = false
    }

    /// No primary key: no `Draft`, no `PrimaryKeyedTable`.
    @Table @BoutiqueTable
    struct LogLine: Sendable, Equatable {
        var message: String
        var level: Int = 0
        @Column(as: Date.UnixTimeRepresentation.self) var loggedAt: Date?
    }

    /// An integer key the database assigns, and literal defaults of every kind.
    @Table("tags") @BoutiqueTable(strict: true)
    struct Tag: Sendable, Equatable {
        let id: Int
        var name: String = "it's"
        var weight: Double = -1.5
        var count = 0
        var isHidden = false
        var note: String? = nil
    }

    /// A public model: every generated member is public too.
    @Table @BoutiqueTable
    public struct PublicItem: Sendable, Equatable {
        public let id: Int
        public var name: String
        @Column(as: JSONRepresentation<[String]>.self) public var tags: [String] = []
    }

    /// A query result with one field per selected expression.
    @Selection
    struct NoteSummary: Sendable, Equatable {
        let title: String
        let tagCount: Int
    }
}

/// A public model at the top level: its conformance and every generated member are public.
@Table("publicRow") @BoutiqueTable(strict: true)
public struct MacroTestPublicRow: Sendable, Equatable {
    public let id: Int
    public var label: String?
}

/// A public selection.
@Selection
public struct MacroTestPublicCount: Sendable, Equatable {
    public let value: Int
}
