#!/usr/bin/env python3
"""Write a database with the Turso engine, change capture on, for BoutiqueDB to read.

Usage: write-turso-cdc.py <database>

The workload is fixed; the Swift test that runs this script knows what it wrote.
Prints `ok` when done.
"""

import sys

import turso


def main():
    conn = turso.connect(sys.argv[1], isolation_level=None)
    cur = conn.cursor()
    cur.execute("PRAGMA capture_data_changes_conn('full')")
    cur.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB)")
    cur.execute("CREATE TABLE k (name TEXT PRIMARY KEY, v)")
    cur.execute("INSERT INTO t VALUES (1, 42, 3.25, 'it''s \"quoted\" 🎉', x'00ff')")
    cur.execute("INSERT INTO t VALUES (2, -9223372036854775808, -0.5, NULL, NULL)")
    cur.execute("BEGIN")
    cur.execute("INSERT INTO k VALUES ('alpha', 1), ('béta', 2.5)")
    cur.execute("UPDATE t SET s = 'changed' WHERE id = 1")
    cur.execute("COMMIT")
    cur.execute("DELETE FROM t WHERE id = 2")
    conn.close()
    print("ok")


if __name__ == "__main__":
    main()
