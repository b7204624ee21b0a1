import BoutiqueSync
import Foundation

/// The `note` table of ``SyncTestSchema`` as a model.
@Table("note")
struct SyncNote: Sendable, Equatable {
    @Column(primaryKey: true) let id: String
    var title: String
    var body: String?
    var rank: Int?
}

/// The `tag` table as a model.
@Table("tag")
struct SyncTag: Sendable, Equatable {
    @Column(primaryKey: true) let id: String
    var noteID: String?
    var label: String?
}
