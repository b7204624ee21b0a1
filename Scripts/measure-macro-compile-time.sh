#!/usr/bin/env bash
# Measures what @Table costs at compile time: 50 models of 8 columns with @Table against the same
# 50 structs without it, each built as its own target of a temporary package that depends on this
# repository by path. Prints the median of several builds of each (the file is touched before every
# build, and the two are interleaved), the median of a build with nothing to do, and the ratios.
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

# Seconds one `swift build --target $1` takes; touches the target's file first unless $2 is "noop".
# The repository is a live path dependency: when something in it changed since the last build, SwiftPM
# rebuilds it first, so such a build is not counted and the measurement is repeated.
time_build() {
    local attempt start end output
    for attempt in 1 2 3 4 5; do
        [[ "${2:-}" == noop ]] || touch "Sources/$1/Models.swift"
        start=$(date +%s.%N)
        output=$(swift build --target "$1" 2>&1)
        end=$(date +%s.%N)
        if ! grep -E '(Compiling|Linking|Emitting module) ' <<<"$output" | grep -vq " $1"; then
            echo "$end - $start" | bc -l
            return
        fi
        echo "  (a dependency was rebuilt; measuring again)" >&2
    done
    echo "the repository keeps changing; stop editing it while measuring" >&2
    exit 1
}

median() { sort -n | awk '{ values[NR] = $1 } END { print (NR % 2) ? values[(NR + 1) / 2] : (values[NR / 2] + values[NR / 2 + 1]) / 2 }'; }
minmax() { sort -n | awk 'NR == 1 { min = $1 } { max = $1 } END { printf "min %.2f s, max %.2f s", min, max }'; }

macro_times=() plain_times=() noop_times=()
for run in $(seq 1 "$runs"); do
    macro_times+=("$(time_build MacroModels)")
    plain_times+=("$(time_build PlainModels)")
    noop_times+=("$(time_build PlainModels noop)")
    echo "run $run/$runs: @Table ${macro_times[-1]} s, plain ${plain_times[-1]} s, nothing to do ${noop_times[-1]} s" >&2
done

macro=$(printf '%s\n' "${macro_times[@]}" | median)
plain=$(printf '%s\n' "${plain_times[@]}" | median)
noop=$(printf '%s\n' "${noop_times[@]}" | median)
printf '50 models x 8 columns, %s runs each (median; %s)\n' "$runs" "swift build --target <target>, file touched"
printf '  @Table structs:  %.2f s  (%s)\n' "$macro" "$(printf '%s\n' "${macro_times[@]}" | minmax)"
printf '  plain structs:   %.2f s  (%s)\n' "$plain" "$(printf '%s\n' "${plain_times[@]}" | minmax)"
printf '  nothing to do:   %.2f s  (%s)\n' "$noop" "$(printf '%s\n' "${noop_times[@]}" | minmax)"
printf '  ratio @Table / plain:                      %.2fx\n' "$(echo "$macro / $plain" | bc -l)"
printf '  ratio without the no-op build overhead:    %.2fx\n' \
    "$(echo "($macro - $noop) / ($plain - $noop)" | bc -l)"
