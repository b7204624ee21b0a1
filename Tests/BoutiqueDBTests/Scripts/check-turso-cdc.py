#!/usr/bin/env python3
"""Check a change log written by BoutiqueDB with the Turso engine itself.

Usage: check-turso-cdc.py <database> <expectations.json>

The expectations file lists every turso_cdc row the database should hold after a
given change id: ids, transaction ids, change types, tables, ids, and the values
each before/after/updates record stands for (typed JSON: integers as strings,
reals with their IEEE-754 bits, text, blobs as hex). For each row this script
checks, using only Turso:

  * the row's columns (change_id, change_txn_id, change_type, table_name, id) and
    that COMMIT rows carry NULL everywhere else;
  * every record decodes with Turso's own
    `bin_record_json_object(table_columns_json_array(table), record)` to the
    expected values (Turso cannot format BLOB values this way, so records with a
    blob skip this step), and `updates` decodes to its flags and new values;
  * every record is byte for byte what Turso writes for the same values: the
    values are inserted into a scratch Turso database with change capture on, and
    its `after` record is compared with ours;
  * turso_cdc_version holds ('turso_cdc', 'v2').

Prints `ok <n> rows` and exits 0, or prints each mismatch and exits 1.
"""

import json
import os
import struct
import sys
import tempfile

import turso


def value(typed):
    kind = typed["type"]
    if kind == "null":
        return None
    if kind == "integer":
        return int(typed["value"])
    if kind == "real":
        return struct.unpack(">d", bytes.fromhex(typed["bits"]))[0]
    if kind == "text":
        return typed["value"]
    if kind == "blob":
        return bytes.fromhex(typed["value"])
    raise ValueError(f"unknown type {kind}")


def same(a, b):
    if type(a) is not type(b):
        # Turso's JSON has no type for a real that is integral; compare those by value.
        if isinstance(a, float) and isinstance(b, int) or isinstance(a, int) and isinstance(b, float):
            return float(a) == float(b) and not (isinstance(a, bool) or isinstance(b, bool))
        return False
    if isinstance(a, float):
        return struct.pack(">d", a) == struct.pack(">d", b)
    return a == b


class Checker:
    def __init__(self, path, expectations):
        self.conn = turso.connect(path, isolation_level=None)
        self.cur = self.conn.cursor()
        self.expectations = expectations
        self.problems = []
        scratch_dir = tempfile.mkdtemp()
        self.scratch = turso.connect(os.path.join(scratch_dir, "scratch.db"), isolation_level=None)
        self.scratch_cur = self.scratch.cursor()
        self.scratch_cur.execute("PRAGMA capture_data_changes_conn('full')")
        self.scratch_tables = set()
        self.columns = {}

    def sql(self, text, params=()):
        self.cur.execute(text, params)
        return self.cur.fetchall()

    def problem(self, message):
        self.problems.append(message)

    def table_columns(self, table):
        if table not in self.columns:
            self.columns[table] = self.sql("SELECT table_columns_json_array(?)", (table,))[0][0]
        return self.columns[table]

    def turso_bytes(self, values):
        """The record Turso itself writes for `values`, read from its change log."""
        count = len(values)
        name = f"r{count}"
        if name not in self.scratch_tables:
            columns = ", ".join(f"c{i}" for i in range(count))
            self.scratch_cur.execute(f"CREATE TABLE {name} ({columns})")
            self.scratch_tables.add(name)
        placeholders = ", ".join("?" for _ in values)
        self.scratch_cur.execute(f"INSERT INTO {name} VALUES ({placeholders})", tuple(values))
        self.scratch_cur.execute(
            "SELECT \"after\" FROM turso_cdc WHERE table_name = ? ORDER BY change_id DESC LIMIT 1", (name,))
        return bytes(self.scratch_cur.fetchall()[0][0])

    def check_record(self, label, table, blob, expected, names=None):
        if expected is None:
            if blob is not None:
                self.problem(f"{label}: expected NULL, found a record")
            return
        if blob is None:
            self.problem(f"{label}: expected a record, found NULL")
            return
        values = [value(v) for v in expected]
        # Byte for byte what Turso writes for these values.
        theirs = self.turso_bytes(values)
        if bytes(blob) != theirs:
            self.problem(f"{label}: bytes {bytes(blob).hex()} but Turso writes {theirs.hex()}")
        # Decoded by Turso's own function (which cannot format blobs).
        if any(isinstance(v, bytes) for v in values):
            return
        columns = names if names is not None else self.table_columns(table)
        try:
            decoded = json.loads(self.sql("SELECT bin_record_json_object(?, ?)", (columns, blob))[0][0])
        except Exception as error:  # noqa: BLE001 - reported as a mismatch
            self.problem(f"{label}: Turso could not decode the record: {error}")
            return
        column_names = json.loads(columns)
        if len(column_names) != len(values):
            self.problem(f"{label}: {len(values)} values for columns {column_names}")
            return
        for name, want in zip(column_names, values):
            got = decoded.get(name)
            if not same(got, want):
                self.problem(f"{label}: column {name} decodes to {got!r}, expected {want!r}")

    def run(self):
        start = self.expectations["after_change_id"]
        rows = self.sql(
            "SELECT change_id, change_txn_id, change_type, table_name, id, \"before\", \"after\", updates "
            "FROM turso_cdc WHERE change_id > ? ORDER BY change_id", (start,))
        expected_rows = self.expectations["rows"]
        if len(rows) != len(expected_rows):
            self.problem(f"{len(rows)} rows after change {start}, expected {len(expected_rows)}")
        for row, want in zip(rows, expected_rows):
            change_id, txn, kind, table, rowid, before, after, updates = row
            label = f"change {change_id}"
            for name, got, exp in (("change_id", change_id, want["change_id"]),
                                   ("change_txn_id", txn, want["change_txn_id"]),
                                   ("change_type", kind, want["change_type"]),
                                   ("table_name", table, want["table_name"])):
                if got != exp:
                    self.problem(f"{label}: {name} is {got!r}, expected {exp!r}")
            if not same(rowid, value(want["id"])):
                self.problem(f"{label}: id is {rowid!r}, expected {value(want['id'])!r}")
            if kind == 2:
                if any(v is not None for v in (table, rowid, before, after, updates)):
                    self.problem(f"{label}: a COMMIT row carries values")
                continue
            self.check_record(f"{label} before", table, before, want["before"])
            self.check_record(f"{label} after", table, after, want["after"])
            if want["updates"] is None:
                if updates is not None:
                    self.problem(f"{label}: expected no updates record")
            else:
                count = len(want["updates"]) // 2
                names = json.dumps([f"f{i}" for i in range(count)] + [f"v{i}" for i in range(count)])
                self.check_record(f"{label} updates", table, updates, want["updates"], names=names)
        # Transactions: ids start at their first row, every transaction ends with a COMMIT row.
        first_of_txn = None
        for change_id, txn, kind, *_ in rows:
            if first_of_txn is None:
                first_of_txn = change_id
            if txn != first_of_txn:
                self.problem(f"change {change_id}: change_txn_id {txn}, the transaction began at {first_of_txn}")
            if kind == 2:
                first_of_txn = None
        if rows and rows[-1][2] != 2:
            self.problem("the log does not end with a COMMIT row")
        version = self.sql("SELECT table_name, version FROM turso_cdc_version")
        if [tuple(r) for r in version] != [("turso_cdc", "v2")]:
            self.problem(f"turso_cdc_version holds {version!r}")
        return len(rows)


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    with open(sys.argv[2], encoding="utf-8") as handle:
        expectations = json.load(handle)
    checker = Checker(sys.argv[1], expectations)
    count = checker.run()
    if checker.problems:
        for problem in checker.problems:
            print("mismatch:", problem)
        sys.exit(1)
    print(f"ok {count} rows")


if __name__ == "__main__":
    main()
