#!/usr/bin/env python3
"""Run transactions in the Turso engine with its change log on, and print what the log holds.

Usage: turso-differential.py <transactions.json>

The file is a JSON list of transactions, each a list of SQL statements (no parameters). Each
transaction runs between BEGIN and COMMIT on a fresh in-memory Turso database with foreign keys on
and `capture_data_changes_conn('full')`. Prints one JSON object: {"transactions": [[row, ...], ...]},
one list per transaction of its row changes (COMMIT rows left out), each row
{"type", "table", "id", "before", "after"} with the records as hex (or null).
"""

import json
import sys

import turso


def hexed(blob):
    return None if blob is None else bytes(blob).hex()


def typed(value):
    if value is None:
        return {"type": "null"}
    if isinstance(value, int):
        return {"type": "integer", "value": str(value)}
    if isinstance(value, float):
        return {"type": "real", "value": repr(value)}
    if isinstance(value, str):
        return {"type": "text", "value": value}
    return {"type": "blob", "value": bytes(value).hex()}


def main():
    with open(sys.argv[1]) as handle:
        transactions = json.load(handle)
    conn = turso.connect(":memory:", isolation_level=None)
    cur = conn.cursor()
    cur.execute("PRAGMA foreign_keys = ON")
    cur.execute("PRAGMA capture_data_changes_conn('full')")
    result = []
    for statements in transactions:
        cur.execute("SELECT coalesce(max(change_id), 0) FROM turso_cdc")
        start = cur.fetchall()[0][0]
        cur.execute("BEGIN")
        for statement in statements:
            cur.execute(statement)
        cur.execute("COMMIT")
        cur.execute(
            "SELECT change_type, table_name, id, \"before\", \"after\" FROM turso_cdc "
            "WHERE change_id > ? AND change_type <> 2 AND table_name <> 'sqlite_schema' ORDER BY change_id",
            (start,))
        result.append([
            {"type": row[0], "table": row[1], "id": typed(row[2]), "before": hexed(row[3]), "after": hexed(row[4])}
            for row in cur.fetchall()
        ])
    print(json.dumps({"transactions": result}))


if __name__ == "__main__":
    main()
