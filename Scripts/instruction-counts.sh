#!/usr/bin/env bash
# Instruction counts (callgrind) of each benchmark variant, minus the shared set-up, and their ratio to
# the raw C variant of the same workload. Counts do not drift with machine noise the way times do.
#
#   Scripts/instruction-counts.sh                 # fetch and insert, every variant
#   Scripts/instruction-counts.sh fetch.table     # chosen variants (raw is always measured)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product boutique-benchmarks >/dev/null
binary=.build/release/boutique-benchmarks
count() {
    local out
    out=$(mktemp)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" --once "$1" >/dev/null 2>"$out"
    grep -o "Collected : [0-9]*" "$out" | grep -o "[0-9]*"
    rm -f "$out"
}
variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(fetch.layer fetch.table insert.layer insert.table)
setup=$(count setup)
declare -A raw
for workload in fetch insert; do raw[$workload]=$(( $(count "$workload.raw") - setup )); done
printf "%-16s %15s %8s\n" variant instructions "× raw"
for workload in fetch insert; do printf "%-16s %15d %8s\n" "$workload.raw" "${raw[$workload]}" "1.000"; done
for variant in "${variants[@]}"; do
    workload=${variant%%.*}
    own=$(( $(count "$variant") - setup ))
    printf "%-16s %15d %8s\n" "$variant" "$own" "$(python3 -c "print(f'{$own/${raw[$workload]}:.3f}')")"
done
