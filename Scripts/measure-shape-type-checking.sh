#!/usr/bin/env bash
# Measures how long the type checker takes over each expression of the query shapes module
# (Tests/BoutiqueQueryShapes, the queries an app writes), and prints the slowest.
#
#   Scripts/measure-shape-type-checking.sh [count] [runs] [file-filter]
#       count        how many expressions to print, slowest first (default 25)
#       runs         how many times to type-check the module; each expression's figure is its
#                    fastest run, which other work on a shared machine disturbs least (default 3)
#       file-filter  only expressions of files whose name contains this (default: every file)
#
# The module is built first (`swift build --target BoutiqueQueryShapes`, which also builds what it
# imports), then type-checked again with `-debug-time-expression-type-checking` using the very
# command SwiftPM compiles it with (read from .build/debug.yaml), only type-checking: the package's
# own build flags stay as they are, so nothing else is rebuilt. The budget an app feels is 100 ms per
# expression; the build fails at 300 ms (see Package.swift), which only a blow-up reaches on a busy
# machine.
set -euo pipefail

count="${1:-25}"
runs="${2:-3}"
filter="${3:-}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

echo "Building BoutiqueQueryShapes and what it imports (not timed)…" >&2
swift build --target BoutiqueQueryShapes >/dev/null

# The module's compile command, turned into a type-check that writes nothing: the outputs, the
# incremental and index flags and the build's own long-expression limit are dropped.
mapfile -t command < <(python3 - "$repo/.build/debug.yaml" <<'PYTHON'
import json, re, sys
text = open(sys.argv[1]).read()
match = re.search(r'"C\.BoutiqueQueryShapes-[^"]*-debug\.module":\n(?:    .*\n)*?    args: (\[.*\])', text)
if not match:
    sys.exit("BoutiqueQueryShapes' compile command is not in .build/debug.yaml")
args = json.loads(match.group(1))
drop_alone = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode",
              "-serialize-diagnostics", "-parseable-output", "-emit-objc-header", "-warnings-as-errors"}
drop_with_value = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path"}
out, skip = [], False
for i, arg in enumerate(args):
    if skip:
        skip = False
        continue
    if arg in drop_alone:
        continue
    if arg in drop_with_value:
        skip = True
        continue
    if re.fullmatch(r"-j[0-9]+", arg):
        continue
    if arg.startswith("-warn-long-expression-type-checking"):
        out.pop()  # its -Xfrontend
        continue
    out.append(arg)
# One file at a time, so that the module's own files do not compete for the processor. The compiler
# times expressions only while a long-expression limit is set, so a limit no expression reaches is.
out += ["-j1", "-typecheck", "-Xfrontend", "-debug-time-expression-type-checking",
        "-Xfrontend", "-warn-long-expression-type-checking=100000"]
print("\n".join(out))
PYTHON
)

results="$(mktemp "${TMPDIR:-/tmp}/shape-type-checking.XXXXXX")"
trap 'rm -f "$results"' EXIT
for run in $(seq 1 "$runs"); do
    echo "type-checking run $run/$runs…" >&2
    # Lines read `12.34ms	/path/File.swift:46:9`.
    "${command[@]}" 2>&1 | grep -E '^[0-9.]+ms\s' >>"$results" || true
done
[[ -s "$results" ]] || { echo "the compiler printed no expression timings" >&2; exit 1; }

echo "Slowest expressions of BoutiqueQueryShapes (fastest of $runs runs each, ms):"
awk -v filter="$filter" '
    { ms = $1; sub(/ms$/, "", ms); where = $2; sub(".*/Tests/BoutiqueQueryShapes/", "", where)
      if (filter != "" && index(where, filter) == 0) next
      if (!(where in best) || ms + 0 < best[where]) best[where] = ms + 0 }
    END { for (w in best) printf "%9.2f  %s\n", best[w], w }
' "$results" | sort -rn | head -n "$count"
