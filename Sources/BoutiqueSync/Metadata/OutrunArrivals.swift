/// Pulled writes that lost on this device to a later write of its own still waiting for the server's
/// answer (`boutique_sync_outrun`): per row and column, the newest such write, and how much its
/// writers had pulled.
///
/// The case they settle: this device edits a cell (E), then writes it again (R). A pull brings another
/// device's write W of that cell, made without E, older than R: R wins here, so W leaves no trace in
/// the row's state and its change never arrives again. Should the server then refuse R, E comes back
/// (``SupersededCells``) while the server holds W, which beat E there without having seen it: a
/// concurrent loss the device must be told of (``SyncLoss/Kind/editBeatenByConcurrentEdit``), and W,
/// not E, is what the row must show. Only W's cell and its writer's pull cursor (``SyncChange/seen``)
/// can judge that, so they are kept here until the row's superseded cells are settled.
///
/// A row is noted only while it has superseded cells (nothing can come back otherwise), and its notes
/// go with the last of those: when the server acknowledges the transactions that wrote over them,
/// when a refusal has put them back, or when the row leaves the device.
///
/// ```swift
/// try OutrunArrivals.note(row.arrivals, after: state, table: "note", key: key, ownWrites: own, sql: sql)
/// let lost = try OutrunArrivals.takeBeaten(&restored, in: local, withdrawn: refused, table: "note", key: key, positions: positions, sql: sql)
/// ```
enum OutrunArrivals {
    /// Notes each of `arrivals` (just merged into `after`) that wrote a column whose winner is a later
    /// write of this file's, when the row has superseded cells a refusal could put back.
    static func note(
        _ arrivals: [PendingRows.Arrival], after: RowRegister, table: String, key: DatabaseValue, ownWrites: OwnWrites, sql: SQLRunner
    ) throws {
        var hasSuperseded: Bool?
        for arrival in arrivals {
            // A snapshot's state carries no cursor: what its writers had pulled is not known.
            var seen: Int64?
            if case .change(let change) = arrival { seen = change.seen }
            for (name, cell) in arrival.register.cells {
                guard let winner = after.cells[name], cell.stamp < winner.stamp, try ownWrites.contains(winner.stamp),
                    try !ownWrites.contains(cell.stamp)
                else { continue }
                if hasSuperseded == nil {
                    hasSuperseded = try !sql.rows(
                        "SELECT 1 FROM boutique_sync_superseded WHERE tbl = ? AND key = ? LIMIT 1", [.text(table), key]
                    ).isEmpty
                }
                guard hasSuperseded == true else { return }
                try add(cell, seen: seen, column: name, table: table, key: key, sql: sql)
            }
        }
    }

    /// For each column of `local` written by a withdrawn (refused) write and restored to an earlier
    /// edit of this file's in `restored`: when a noted pulled write beat that edit, the pulled write
    /// takes its place in `restored`, and the edit is returned when that write's writers had not
    /// pulled it (a concurrent loss), by the edit's stamp.
    static func takeBeaten(
        _ restored: inout [String: CellRegister], in local: RowRegister, withdrawn: Set<SyncStamp>, table: String, key: DatabaseValue,
        positions: OwnLogPositions, sql: SQLRunner
    ) throws -> [SyncStamp: [String: DatabaseValue]] {
        guard !restored.isEmpty else { return [:] }
        let notes = try self.notes(table: table, key: key, sql: sql)
        var lost: [SyncStamp: [String: DatabaseValue]] = [:]
        for (name, edit) in restored {
            guard let current = local.cells[name], withdrawn.contains(current.stamp), let beater = notes[name],
                edit.stamp < beater.cell.stamp
            else { continue }
            restored[name] = beater.cell
            if beater.cell.value != edit.value, try positions.knew(edit.stamp, seen: beater.seen) == false {
                lost[edit.stamp, default: [:]][name] = edit.value
            }
        }
        return lost
    }

    /// Forgets the notes of rows left with no superseded cells.
    static func forgetSettled(sql: SQLRunner) throws {
        try sql.run(
            """
            DELETE FROM boutique_sync_outrun WHERE NOT EXISTS (
                SELECT 1 FROM boutique_sync_superseded s WHERE s.tbl = boutique_sync_outrun.tbl AND s.key = boutique_sync_outrun.key)
            """)
    }

    /// Forgets every note of a row.
    static func forget(table: String, key: DatabaseValue, sql: SQLRunner) throws {
        try sql.run("DELETE FROM boutique_sync_outrun WHERE tbl = ? AND key = ?", [.text(table), key])
    }

    /// A noted write: the newest cell, and the furthest cursor of the writes noted for the column
    /// (`nil` when one of them came without one). An edit is concurrent with them only if no noted
    /// write had pulled it, and whether one had grows with its cursor, so the furthest one decides.
    struct Note {
        var cell: CellRegister
        var seen: Int64?
    }

    private static func add(_ cell: CellRegister, seen: Int64?, column: String, table: String, key: DatabaseValue, sql: SQLRunner) throws {
        var note = Note(cell: cell, seen: seen)
        if let earlier = try notes(table: table, key: key, sql: sql)[column] {
            if cell.stamp < earlier.cell.stamp { note.cell = earlier.cell }
            note.seen = earlier.seen.flatMap { earlierSeen in seen.map { max($0, earlierSeen) } }
        }
        var register = RowRegister()
        register.cells[column] = note.cell
        try sql.run(
            "INSERT OR REPLACE INTO boutique_sync_outrun(tbl, key, col, cell, seen) VALUES (?, ?, ?, ?, ?)",
            [.text(table), key, .text(column), .blob(register.record()), note.seen.map { .integer($0) } ?? .null])
    }

    private static func notes(table: String, key: DatabaseValue, sql: SQLRunner) throws -> [String: Note] {
        var notes: [String: Note] = [:]
        for row in try sql.rows("SELECT col, cell, seen FROM boutique_sync_outrun WHERE tbl = ? AND key = ?", [.text(table), key]) {
            guard row.count == 3, case .text(let column) = row[0], case .blob(let bytes) = row[1],
                let cell = try RowRegister(record: bytes).cells[column]
            else { continue }
            var seen: Int64?
            if case .integer(let value) = row[2] { seen = value }
            notes[column] = Note(cell: cell, seen: seen)
        }
        return notes
    }
}
