#!/usr/bin/env bash
# Measures what @Table costs at compile time: 50 models of 8 columns with @Table against the same
# 50 structs without it, each built as its own target of a temporary package that depends on this
# repository by path. Prints the median of several builds of each (the file is touched before every
# build, and the two are interleaved), the median of a build with nothing to do, and the ratios, for
# wall-clock time and for CPU time (which other work on a busy machine disturbs less).
#
#   Scripts/measure-macro-compile-time.sh [runs]      # default 7 runs each
set -euo pipefail

runs="${1:-7}"
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
identity="$(basename "$repo" | tr '[:upper:]' '[:lower:]')"
work="$(mktemp -d "${TMPDIR:-/tmp}/boutique-macro-timing.XXXXXX")"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/Sources/MacroModels" "$work/Sources/PlainModels"
cat > "$work/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "MacroCompileTime",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(path: "$repo")],
    targets: [
        .target(name: "MacroModels", dependencies: [.product(name: "BoutiqueDB", package: "$identity")]),
        .target(name: "PlainModels", dependencies: [.product(name: "BoutiqueDB", package: "$identity")]),
    ],
    swiftLanguageModes: [.v6]
)
SWIFT

# One model: 8 columns of the common kinds (key, text, optional, defaults, date, real).
model() {  # $1: attribute line, $2: index
    cat <<SWIFT
$1
struct Model$2: Sendable {
    let id: Int
    var title: String
    var body: String
    var count: Int = 0
    var score: Double
    var createdAt: Date
    var isDone: Bool = false
    var note: String?
}

SWIFT
}
{
    printf 'import BoutiqueDB\nimport Foundation\n\n'
    for index in $(seq 1 50); do model "@Table" "$index"; done
} > "$work/Sources/MacroModels/Models.swift"
{
    printf 'import BoutiqueDB\nimport Foundation\n\n'
    for index in $(seq 1 50); do model "" "$index"; done
} > "$work/Sources/PlainModels/Models.swift"

cd "$work"
echo "Building the dependencies once (not timed)…" >&2
swift build --target MacroModels >/dev/null
swift build --target PlainModels >/dev/null

# "wall cpu" seconds of one `swift build --target $1` (cpu: user + system of the whole process tree);
# touches the target's file first unless $2 is "noop". The repository is a live path dependency: when
# something in it changed since the last build, SwiftPM rebuilds it first, so such a build is not
# counted and the measurement is repeated.
time_build() {
    local attempt times log
    log="$work/build.log"
    for attempt in 1 2 3 4 5; do
        [[ "${2:-}" == noop ]] || touch "Sources/$1/Models.swift"
        times=$( { TIMEFORMAT='%R %U %S'; time swift build --target "$1" >"$log" 2>&1; } 2>&1 )
        if ! grep -E '(Compiling|Linking|Emitting module) ' "$log" | grep -vq " $1"; then
            echo "$times" | awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }'
            return
        fi
        echo "  (a dependency was rebuilt; measuring again)" >&2
    done
    echo "the repository keeps changing; stop editing it while measuring" >&2
    exit 1
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
minimum() { sort -n | head -1; }
column_of() { awk -v c="$1" '{ print $c }'; }

macro_runs="" plain_runs="" noop_runs=""
for run in $(seq 1 "$runs"); do
    macro=$(time_build MacroModels)
    plain=$(time_build PlainModels)
    noop=$(time_build PlainModels noop)
    macro_runs+="$macro"$'\n' plain_runs+="$plain"$'\n' noop_runs+="$noop"$'\n'
    echo "run $run/$runs (wall cpu): @Table $macro, plain $plain, nothing to do $noop" >&2
done

stat() {  # $1 runs, $2 column (1 wall, 2 cpu), $3 median|minimum
    printf '%s' "$1" | grep . | column_of "$2" | "$3"
}
report() {  # $1 label, $2 column
    local macro plain noop
    macro=$(stat "$macro_runs" "$2" median) plain=$(stat "$plain_runs" "$2" median) noop=$(stat "$noop_runs" "$2" median)
    printf '%s (median of %s; fastest in brackets)\n' "$1" "$runs"
    printf '  @Table structs:  %6.2f s  [%.2f]\n' "$macro" "$(stat "$macro_runs" "$2" minimum)"
    printf '  plain structs:   %6.2f s  [%.2f]\n' "$plain" "$(stat "$plain_runs" "$2" minimum)"
    printf '  nothing to do:   %6.2f s  [%.2f]\n' "$noop" "$(stat "$noop_runs" "$2" minimum)"
    printf '  ratio @Table / plain:                   %.2fx  [fastest %.2fx]\n' "$(echo "$macro / $plain" | bc -l)" \
        "$(echo "$(stat "$macro_runs" "$2" minimum) / $(stat "$plain_runs" "$2" minimum)" | bc -l)"
    printf '  ratio without the no-op build overhead: %.2fx\n' "$(echo "($macro - $noop) / ($plain - $noop)" | bc -l)"
}
echo "50 models x 8 columns: swift build --target <target>, the file touched before each build"
report "wall-clock time" 1
report "CPU time (user + system, all processes)" 2
