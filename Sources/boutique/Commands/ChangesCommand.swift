import BoutiqueDB
import Foundation

/// `boutique changes FILE`: the decoded change feed.
enum ChangesCommand: Command {
    static let name = "changes"
    static let summary = "print the change log: each committed transaction and its row changes"
    static let help = """
        usage: boutique changes FILE [--since TOKEN] [--follow] [--json]

        Prints every transaction recorded in FILE's change log (turso_cdc) after TOKEN, with each row
        change's table, kind, rowid and values. A token is the change id of a transaction's COMMIT row,
        as `boutique changes` prints it (0 for the beginning); any other change id is read as the token
        before it, so the transaction holding that change is listed whole. With nothing newer it prints
        "no changes after TOKEN" and exits. --follow keeps printing new transactions as any process
        commits them, until Ctrl-C. --json prints one JSON object per line.
        """

    static func run(_ arguments: inout ArgumentParser) async throws {
        let follow = arguments.takeFlag("--follow")
        let json = arguments.takeFlag("--json")
        let since = try arguments.takeOption("--since").map { value -> Int64 in
            guard let id = Int64(value), id >= 0 else { throw UsageError("--since takes a change id (0 or more)") }
            return id
        } ?? 0
        let path = try arguments.takePositional("FILE")
        try arguments.finish()

        let db = try await DatabaseFile.openShared(path)
        let end = try await db.databaseActor.currentToken()
        // The last COMMIT at or before the id given: a change id inside a transaction lists it whole.
        let token = try await db.databaseActor.read { conn in
            let commit = try conn.fetchValue(
                "SELECT max(change_id) FROM turso_cdc WHERE change_type = 2 AND change_id <= ?", [.integer(since)])
            if case .integer(let id)? = commit { return id }
            return 0
        }
        if !follow && end.changeID <= token {
            Output.line("no changes after \(since)")
            await db.close()
            return
        }
        for try await transaction in db.changes(since: ChangeToken(changeID: token)) {
            Output.line(json ? ChangeFormatting.json(transaction) : ChangeFormatting.text(transaction))
            if !follow && transaction.token >= end { break }
        }
        await db.close()
    }
}

/// Renderings of committed transactions for people and for programs.
enum ChangeFormatting {
    static func text(_ transaction: ChangeTransaction) -> String {
        var lines = ["transaction \(transaction.transactionID) — token \(transaction.token.changeID), \(transaction.changes.count) change\(transaction.changes.count == 1 ? "" : "s")"]
        for change in transaction.changes {
            var line = "  \(change.kind) \(change.table) rowid \(change.id)"
            if let after = change.after ?? change.before {
                line += ": " + describe(after, columns: change.columns, assigned: change.assignedColumns)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    static func describe(_ values: [DatabaseValue], columns: [String]?, assigned: [Int]?) -> String {
        values.enumerated().compactMap { index, value in
            if let assigned, !assigned.contains(index) { return nil }
            let name = columns.flatMap { index < $0.count ? $0[index] : nil } ?? "#\(index)"
            return "\(name)=\(TableRenderer.cellText(value))"
        }.joined(separator: ", ")
    }

    static func json(_ transaction: ChangeTransaction) -> String {
        let changes: [[String: Any]] = transaction.changes.map { change in
            var object: [String: Any] = ["table": change.table, "kind": "\(change.kind)", "id": jsonValue(change.id)]
            if let before = change.before { object["before"] = row(before, columns: change.columns) }
            if let after = change.after { object["after"] = row(after, columns: change.columns) }
            if let assigned = change.assignedColumnNames { object["assigned"] = assigned }
            return object
        }
        let object: [String: Any] = [
            "token": transaction.token.changeID, "transaction": transaction.transactionID, "time": transaction.time,
            "changes": changes,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    static func row(_ values: [DatabaseValue], columns: [String]?) -> Any {
        guard let columns, columns.count == values.count else { return values.map(jsonValue) }
        return Dictionary(uniqueKeysWithValues: zip(columns, values.map(jsonValue)))
    }

    static func jsonValue(_ value: DatabaseValue) -> Any {
        switch value {
        case .null: NSNull()
        case .integer(let integer): integer
        case .real(let real): real.isFinite ? real : String(real)
        case .text(let text): text
        case .blob: value.description
        }
    }
}
