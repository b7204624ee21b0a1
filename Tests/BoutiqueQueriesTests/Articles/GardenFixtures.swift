import BoutiqueQueries
import BoutiqueSQLite
import Foundation

// A garden, for the tests that port StructuredQueries' articles: beds, the plants in them (a plant
// may not be planted in a bed yet), gardeners who may have a mentor (a self-join), labels unique by
// name, and waterings whose columns all have defaults.

@Table
struct Bed: Sendable, Equatable {
    let id: Int
    var name: String
}

@Table
struct Plant: Sendable, Equatable {
    let id: Int
    var bedID: Int?
    var name: String
    var height: Double
    var waterings: Int
    var isBlooming: Bool = false
    var isArchived: Bool = false
    var rank: Int?
}

extension Plant {
    /// Scopes, as an app declares them.
    static let blooming = Self.where { $0.isBlooming }
    static let tall = Self.where { $0.height > 1.0 }
    static var current: Where<Plant> { Self.where { !$0.isArchived } }
}

extension Where<Plant> {
    /// A helper on the filter type itself, chained like a scope.
    var ranked: Self { self.where { $0.rank.isNot(nil) } }
}

@Table
struct Gardener: Sendable, Equatable {
    let id: Int
    var name: String
    var mentorID: Int?
}

enum Mentor: AliasName {}

@Table
struct Label: Sendable, Equatable {
    let id: Int
    var name: String
    var uses: Int
}

@Table
struct Watering: Sendable, Equatable {
    let id: Int
    var litres: Double
    var note: String
}

/// Two beds (one empty), five plants (one not in a bed), three gardeners, two labels.
func makeGardenDatabase() throws -> Connection {
    let connection = try Connection(path: ":memory:")
    try connection.execute("""
        CREATE TABLE bed (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE plant (
            id INTEGER PRIMARY KEY, bedID INTEGER REFERENCES bed(id), name TEXT NOT NULL,
            height REAL NOT NULL, waterings INTEGER NOT NULL DEFAULT 0,
            isBlooming INTEGER NOT NULL DEFAULT 0, isArchived INTEGER NOT NULL DEFAULT 0, rank INTEGER
        );
        CREATE TABLE gardener (id INTEGER PRIMARY KEY, name TEXT NOT NULL, mentorID INTEGER);
        CREATE TABLE label (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, uses INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE watering (id INTEGER PRIMARY KEY, litres REAL NOT NULL DEFAULT 1.5, note TEXT NOT NULL DEFAULT 'routine');
        INSERT INTO bed (id, name) VALUES (1, 'Herbs'), (2, 'Roses'), (3, 'Fallow');
        INSERT INTO plant (id, bedID, name, height, waterings, isBlooming, isArchived, rank) VALUES
            (1, 1, 'Basil', 0.32, 4, 0, 0, 2),
            (2, 1, 'Mint', 0.6, -3, 1, 0, NULL),
            (3, 2, 'Climber', 2.26, 7, 1, 0, 2),
            (4, 2, 'Shrub', 1.48, 0, 0, 1, 3),
            (5, NULL, 'Seedling', 0.04, 1, 0, 0, NULL);
        INSERT INTO gardener (id, name, mentorID) VALUES (1, 'Olu', NULL), (2, 'Pia', 1), (3, 'Rafe', 9);
        INSERT INTO label (id, name, uses) VALUES (1, 'edible', 2), (2, 'shade', 0);
        """)
    return connection
}
