import BoutiqueQueries

/// The statements the preparation steps gave the writer, kept until its migrations have run: a
/// temporary trigger names its table when it is created, and on a new file that table comes from a
/// migration, which runs after the writer is prepared.
///
/// Only the writer's preparation and then the actor that opened it use it, one after the other.
final class StatementsAfterMigrations {
    private(set) var statements: [QueryFragment] = []

    func append(_ statement: QueryFragment) { statements.append(statement) }
}
