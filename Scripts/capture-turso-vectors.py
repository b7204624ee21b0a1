#!/usr/bin/env python3
"""Capture SQLite record-format test vectors from the Turso engine's change log.

Runs a fixed script of schema changes, inserts, updates and deletes against a
fresh Turso database with change data capture on, then writes every
`turso_cdc` row, with the `before`, `after` and `updates` records as hex and
the values each record stands for, to
`Tests/BoutiqueSQLiteTests/Fixtures/turso-record-vectors.json`.

The expected values are not obtained by decoding the records: they come from
reading the tables themselves (a snapshot before and after each statement), so
the fixture checks a decoder against the engine rather than against itself.
A small reference decoder and encoder in this file then confirm that the bytes
and the snapshots agree, and that Turso's bytes are the canonical encoding.

Usage (needs `pip install pyturso`, version 0.8.x):

    python3 Scripts/capture-turso-vectors.py [output.json]

`change_time` is wall-clock time and so differs between runs; everything else
is reproducible.
"""

import json
import os
import struct
import sys
import tempfile

import turso

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_OUTPUT = os.path.join(
    REPO_ROOT, "Tests", "BoutiqueSQLiteTests", "Fixtures", "turso-record-vectors.json"
)

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

# Integers on both sides of every serial-type width boundary (1, 2, 3, 4, 6, 8 bytes),
# plus the two constants that get their own serial types (0 and 1).
BOUNDARY_INTEGERS = [
    0, 1, -1, 2, 127, 128, -128, -129, 255, 256,
    32767, 32768, -32768, -32769,
    2**23 - 1, 2**23, -(2**23), -(2**23) - 1,
    2**31 - 1, 2**31, -(2**31), -(2**31) - 1,
    2**47 - 1, 2**47, -(2**47), -(2**47) - 1,
    INT64_MIN, INT64_MAX,
]

REALS = [
    0.5, -0.0, 0.0, 1.0, 2.0, -2.5, 3.141592653589793, 1e308, -1e308, 1e-300,
    5e-324, 2.2250738585072014e-308, float("inf"), float("-inf"),
]

TEXTS = [
    "", "x", "it's \"quoted\"", "naïve café", "👩‍💻 🎉", "日本語のテキスト",
    "nul\x00inside", "a" * 200, "long " * 1800,
]

BLOBS = [b"", b"\x00", bytes(range(256)), bytes((i * 7) & 0xFF for i in range(300))]


# --- typed JSON values -------------------------------------------------------

def typed(value):
    """The fixture's JSON form of one SQLite value (64-bit integers as strings)."""
    if value is None:
        return {"type": "null"}
    if isinstance(value, bool):
        raise TypeError("booleans are not SQLite values")
    if isinstance(value, int):
        return {"type": "integer", "value": str(value)}
    if isinstance(value, float):
        bits = struct.pack(">d", value).hex()
        return {"type": "real", "value": repr(value), "bits": bits}
    if isinstance(value, str):
        return {"type": "text", "value": value, "utf8": value.encode("utf-8").hex()}
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"type": "blob", "value": bytes(value).hex()}
    raise TypeError(f"unexpected value {value!r}")


def same_value(a, b):
    """Equality that tells 0.0 from -0.0 and keeps types apart (1 != 1.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return struct.pack(">d", a) == struct.pack(">d", b)
    return a == b


def same_values(xs, ys):
    return len(xs) == len(ys) and all(same_value(x, y) for x, y in zip(xs, ys))


# --- reference record codec (only to cross-check the engine's bytes) ---------

def read_varint(data, offset):
    result = 0
    for i in range(9):
        byte = data[offset + i]
        if i == 8:
            return (result << 8) | byte, offset + 9
        result = (result << 7) | (byte & 0x7F)
        if byte < 0x80:
            return result, offset + i + 1
    raise AssertionError("unreachable")


def write_varint(value):
    value &= (1 << 64) - 1
    if value > 0x00FFFFFFFFFFFFFF:
        out = [value & 0xFF]
        value >>= 8
        for _ in range(8):
            out.append((value & 0x7F) | 0x80)
            value >>= 7
        return bytes(reversed(out))
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    return bytes(reversed(out))


def decode_record(data):
    header_size, offset = read_varint(data, 0)
    types = []
    while offset < header_size:
        serial, offset = read_varint(data, offset)
        types.append(serial)
    assert offset == header_size, "header overruns its size"
    body = header_size
    values = []
    for serial in types:
        if serial == 0:
            values.append(None)
        elif 1 <= serial <= 6:
            width = [0, 1, 2, 3, 4, 6, 8][serial]
            values.append(int.from_bytes(data[body:body + width], "big", signed=True))
            body += width
        elif serial == 7:
            values.append(struct.unpack(">d", data[body:body + 8])[0])
            body += 8
        elif serial in (8, 9):
            values.append(serial - 8)
        elif serial >= 12 and serial % 2 == 0:
            length = (serial - 12) // 2
            values.append(bytes(data[body:body + length]))
            body += length
        elif serial >= 13:
            length = (serial - 13) // 2
            values.append(bytes(data[body:body + length]).decode("utf-8"))
            body += length
        else:
            raise AssertionError(f"reserved serial type {serial}")
    assert body == len(data), "record has trailing bytes"
    return values


def encode_record(values):
    types = bytearray()
    body = bytearray()
    for value in values:
        if value is None:
            types += write_varint(0)
        elif isinstance(value, int):
            if value in (0, 1):
                types += write_varint(8 + value)
                continue
            for serial, width in ((1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (6, 8)):
                if -(1 << (8 * width - 1)) <= value < (1 << (8 * width - 1)):
                    break
            types += write_varint(serial)
            body += value.to_bytes(width, "big", signed=True)
        elif isinstance(value, float):
            types += write_varint(7)
            body += struct.pack(">d", value)
        elif isinstance(value, str):
            raw = value.encode("utf-8")
            types += write_varint(len(raw) * 2 + 13)
            body += raw
        else:
            types += write_varint(len(value) * 2 + 12)
            body += value
    header_size = len(types) + 1
    while len(write_varint(header_size)) + len(types) != header_size:
        header_size += 1
    return write_varint(header_size) + bytes(types) + bytes(body)


# --- the capture --------------------------------------------------------------

class Capture:
    def __init__(self, path):
        self.conn = turso.connect(path, isolation_level=None)
        self.cursor = self.conn.cursor()
        self.last_change_id = 0
        self.changes = []
        self.tables = {}
        self.problems = []
        # The documented name; older builds only knew the `unstable_` spelling.
        for pragma in ("capture_data_changes_conn", "unstable_capture_data_changes_conn"):
            try:
                self.sql(f"PRAGMA {pragma}('full')")
                self.cdc_pragma = f"PRAGMA {pragma}('full')"
                break
            except Exception:  # noqa: BLE001 - try the next spelling
                continue
        else:
            raise SystemExit("this Turso build has no change-capture pragma")

    def sql(self, text, params=()):
        self.cursor.execute(text, params)
        return self.cursor.fetchall()

    def table_rows(self, table):
        """rowid -> list of column values, as the engine reads them back."""
        if table == "sqlite_schema":
            rows = self.sql("SELECT rowid, type, name, tbl_name, rootpage, sql FROM sqlite_schema")
        else:
            rows = self.sql(f'SELECT rowid, * FROM "{table}"')
        return {row[0]: list(row[1:]) for row in rows}

    def snapshot(self):
        tables = ["sqlite_schema"] + list(self.tables)
        return {name: self.table_rows(name) for name in tables}

    def run(self, statement, params=(), set_columns=None, note=None):
        """Runs one statement and records the change rows it adds, with expected values."""
        before = self.snapshot()
        self.sql(statement, params)
        if statement.upper().startswith("CREATE TABLE"):
            name = statement.split()[2].strip('"')
            self.tables[name] = [row[1] for row in self.sql(f'PRAGMA table_info("{name}")')]
        after = self.snapshot()
        rows = self.sql(
            "SELECT change_id, change_time, change_txn_id, change_type, table_name, id, "
            '"before", "after", updates FROM turso_cdc WHERE change_id > ? ORDER BY change_id',
            (self.last_change_id,),
        )
        for row in rows:
            self.record(row, statement, params, set_columns, note, before, after)
            self.last_change_id = row[0]

    def record(self, row, statement, params, set_columns, note, snap_before, snap_after):
        change_id, change_time, txn_id, change_type, table, rowid, b, a, u = row
        entry = {
            "change_id": change_id,
            "change_time": change_time,
            "change_txn_id": txn_id,
            "change_type": change_type,
            "table_name": table,
            "id": typed(rowid),
            "statement": statement if change_type != 2 else "COMMIT",
        }
        if note and change_type != 2:
            entry["note"] = note
        if params and change_type != 2:
            entry["parameters"] = [typed(p) for p in params]
        for name, blob, snap in (("before", b, snap_before), ("after", a, snap_after)):
            if blob is None:
                entry[name] = None
                continue
            decoded = decode_record(bytes(blob))
            expected = snap.get(table, {}).get(rowid)
            if expected is None:
                # The row is absent from that snapshot; the other side of a rowid
                # change (DELETE + INSERT) is the only case where this is expected.
                other = snap_after if snap is snap_before else snap_before
                expected = other.get(table, {}).get(rowid)
            if expected is None or not same_values(decoded, expected):
                self.problems.append(f"change {change_id} {name}: bytes {decoded!r} vs table {expected!r}")
                expected = decoded
            entry[name] = self.vector(blob, expected, change_id, name)
        if u is None:
            entry["updates"] = None
        else:
            decoded = decode_record(bytes(u))
            columns = self.tables[table]
            new_row = snap_after[table][rowid]
            flags = [1 if c in (set_columns or []) else 0 for c in columns]
            expected = flags + [v if f else None for f, v in zip(flags, new_row)]
            if not same_values(decoded, expected):
                self.problems.append(f"change {change_id} updates: bytes {decoded!r} vs expected {expected!r}")
                expected = decoded
            entry["updates"] = self.vector(u, expected, change_id, "updates")
        self.changes.append(entry)

    def vector(self, blob, values, change_id, name):
        data = bytes(blob)
        canonical = encode_record(values)
        if canonical != data:
            self.problems.append(
                f"change {change_id} {name}: engine wrote {data.hex()}, canonical encoding is {canonical.hex()}"
            )
        return {"hex": data.hex(), "values": [typed(v) for v in values]}


def main():
    output = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUTPUT
    with tempfile.TemporaryDirectory() as directory:
        capture = Capture(os.path.join(directory, "vectors.db"))
        run = capture.run

        run("CREATE TABLE items (id INTEGER PRIMARY KEY, a, b, c)")
        run("CREATE TABLE tags (name TEXT PRIMARY KEY, note TEXT, weight REAL, count INTEGER, data BLOB)")
        wide_columns = [f"c{i}" for i in range(130)]
        run("CREATE TABLE wide (id INTEGER PRIMARY KEY, " + ", ".join(wide_columns) + ")")
        run("CREATE INDEX tags_by_count ON tags (count)")

        # One row per boundary integer: the value itself, its negation where it fits, and NULL.
        for index, value in enumerate(BOUNDARY_INTEGERS):
            negated = -value if INT64_MIN < value else None
            run("INSERT INTO items (id, a, b, c) VALUES (?, ?, ?, NULL)", (1000 + index, value, negated))
        # Boundary integers as the rowid itself (the INTEGER PRIMARY KEY holds the rowid).
        for value in (0, -1, 2**47, INT64_MIN, INT64_MAX):
            run("INSERT INTO items (id, a, b, c) VALUES (?, 'rowid', NULL, NULL)", (value,))
        for index, value in enumerate(REALS):
            run("INSERT INTO items (id, a, b, c) VALUES (?, ?, ?, ?)", (2000 + index, value, -value, 1))
        run("INSERT INTO items (id, a, b, c) VALUES (2100, ?, 'nan is stored as NULL', NULL)", (float("nan"),))
        run("INSERT INTO items (id, a, b, c) VALUES (2101, 1e999, -1e999, 'overflowing literals')")
        for index, value in enumerate(TEXTS):
            run("INSERT INTO items (id, a, b, c) VALUES (?, ?, ?, ?)", (3000 + index, value, len(value), value[:1]))
        for index, value in enumerate(BLOBS):
            run("INSERT INTO items (id, a, b, c) VALUES (?, ?, ?, NULL)", (4000 + index, value, len(value)))

        # Updates: one column, several columns, a column set to its own value, NULL in and out.
        run("UPDATE items SET a = ? WHERE id = 1000", (INT64_MAX,), set_columns=["a"])
        run("UPDATE items SET a = NULL, b = 'now text', c = x'cafe' WHERE id = 1001", set_columns=["a", "b", "c"])
        run("UPDATE items SET b = b WHERE id = 1002", set_columns=["b"], note="assigned its own value")
        run("UPDATE items SET c = 0.5 WHERE id BETWEEN 1003 AND 1005", set_columns=["c"])
        run("UPDATE items SET a = 1, b = 0 WHERE id = 3000", set_columns=["a", "b"])
        run("UPDATE items SET id = 5000 WHERE id = 1006", note="changing the rowid is a DELETE then an INSERT")
        run("DELETE FROM items WHERE id = 1007")
        run("DELETE FROM items WHERE id IN (2001, 3004, 4002)")

        # A text-keyed rowid table: the CDC id is the rowid, the key is an ordinary column.
        run("INSERT INTO tags VALUES ('alpha', 'first', 1.5, 3, x'00ff')")
        run("INSERT INTO tags VALUES ('it''s', NULL, 2, 0, NULL)", note="2 into a REAL column")
        run("INSERT INTO tags VALUES ('🎉', '', -0.0, 1, x'')")
        run("INSERT INTO tags (name) VALUES ('')")
        run("UPDATE tags SET note = 'second' WHERE name = 'alpha'", set_columns=["note"])
        run("UPDATE tags SET name = 'beta' WHERE name = 'alpha'", set_columns=["name"], note="key change keeps the rowid")
        run("UPDATE tags SET weight = 1e308, count = -129, data = x'01' WHERE name = 'it''s'",
            set_columns=["weight", "count", "data"])
        run("DELETE FROM tags WHERE name = '🎉'")

        # 131 columns: the header size varint takes two bytes, and so does the updates record's.
        wide_values = []
        for i in range(130):
            wide_values.append([None, i, -i * 1000, i / 4, f"v{i}", bytes([i])][i % 6])
        run("INSERT INTO wide VALUES (7, " + ", ".join("?" * 130) + ")", tuple(wide_values))
        run("UPDATE wide SET c129 = 'last', c0 = 1 WHERE id = 7", set_columns=["c129", "c0"])
        run("DELETE FROM wide WHERE id = 7")

        # Several statements in one transaction share a change_txn_id and one COMMIT row.
        run("BEGIN")
        run("INSERT INTO items (id, a, b, c) VALUES (6000, 'in', 'a', 'transaction')")
        run("UPDATE items SET a = 'changed' WHERE id = 6000", set_columns=["a"])
        run("DELETE FROM items WHERE id = 1008")
        run("COMMIT")
        # A rolled-back transaction leaves no change rows at all.
        run("BEGIN")
        run("DELETE FROM items")
        run("ROLLBACK")

        cdc_sql = capture.sql("SELECT sql FROM sqlite_schema WHERE name = 'turso_cdc'")[0][0]
        version_sql = capture.sql("SELECT sql FROM sqlite_schema WHERE name = 'turso_cdc_version'")[0][0]
        version_rows = capture.sql("SELECT table_name, version FROM turso_cdc_version")
        info = capture.sql("PRAGMA capture_data_changes_conn")
        internal = capture.sql(
            "SELECT type, name, sql FROM sqlite_schema WHERE name NOT IN ('items', 'tags', 'wide', 'tags_by_count') "
            "ORDER BY rowid"
        )

    fixture = {
        "description": (
            "SQLite record-format vectors written by the Turso engine into turso_cdc "
            "(produced by Scripts/capture-turso-vectors.py; do not edit by hand). "
            "Values: integers as decimal strings, reals with their IEEE-754 bits, text with its UTF-8 hex, "
            "blobs as hex. change_time is wall-clock time."
        ),
        "engine": {"package": "pyturso", "version": getattr(turso, "__version__", None) or package_version()},
        "cdc_pragma": capture.cdc_pragma,
        "cdc_pragma_state": [list(row) for row in info],
        "schema": {
            "turso_cdc": cdc_sql,
            "turso_cdc_version": version_sql,
            "turso_cdc_version_rows": [list(row) for row in version_rows],
            "objects_created_with_capture": [list(row) for row in internal],
        },
        "tables": {name: columns for name, columns in capture.tables.items()},
        "change_types": {"insert": 1, "update": 0, "delete": -1, "commit": 2},
        "changes": capture.changes,
        "mismatches": capture.problems,
    }
    os.makedirs(os.path.dirname(output), exist_ok=True)
    with open(output, "w", encoding="utf-8") as handle:
        handle.write(render(fixture))
    records = sum(1 for c in capture.changes for k in ("before", "after", "updates") if c[k])
    print(f"wrote {len(capture.changes)} change rows, {records} records, to {output}")
    for problem in capture.problems:
        print("mismatch:", problem)


def render(fixture):
    """Pretty JSON with one change row per line, so that a re-capture diffs line by line."""
    def compact(value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    lines = ["{"]
    keys = list(fixture)
    for index, key in enumerate(keys):
        comma = "," if index < len(keys) - 1 else ""
        value = fixture[key]
        if key == "changes":
            lines.append(f"  {compact(key)}: [")
            for row_index, row in enumerate(value):
                row_comma = "," if row_index < len(value) - 1 else ""
                lines.append(f"    {compact(row)}{row_comma}")
            lines.append(f"  ]{comma}")
        elif isinstance(value, dict):
            lines.append(f"  {compact(key)}: {{")
            inner = list(value)
            for inner_index, inner_key in enumerate(inner):
                inner_comma = "," if inner_index < len(inner) - 1 else ""
                lines.append(f"    {compact(inner_key)}: {compact(value[inner_key])}{inner_comma}")
            lines.append(f"  }}{comma}")
        else:
            lines.append(f"  {compact(key)}: {compact(value)}{comma}")
    lines.append("}")
    text = "\n".join(lines) + "\n"
    if json.loads(text) != fixture:
        raise AssertionError("rendered JSON does not read back as the fixture")
    return text


def package_version():
    try:
        from importlib.metadata import version
        return version("pyturso")
    except Exception:  # noqa: BLE001 - the version is informative only
        return None


if __name__ == "__main__":
    main()
