#!/usr/bin/env bash
# exact_scale.sh: exact's scale on gen train steps: 200 nodes (seeds 1-5) and 1000 nodes (seed
# 1) at 60/70/80/90% of the budget-free peak, as generated (first runs in any order the Edges
# allow) and with the given order fixed (bench/fix_order.py), --solver exact under a limit of
# CPU seconds (bench_exact: states, CPU seconds, proven or the gap). Markdown tables.
# Usage: bench/exact_scale.sh BUILD_DIR [SECONDS] (a Release build: BUILD_DIR/memtris and
# BUILD_DIR/bench/bench_exact).
set -eu
B=${1:?usage: $0 BUILD_DIR [SECONDS]}
T=${2:-10}
SRC=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
free=() fixed=()
for s in 1 2 3 4 5; do
    "$B/memtris" gen train -n 200 --seed $s -o "$TMP/train200_$s.json"
    free+=("$TMP/train200_$s.json")
done
"$B/memtris" gen train -n 1000 --seed 1 -o "$TMP/train1000_1.json"
free+=("$TMP/train1000_1.json")
for g in "${free[@]}"; do
    /usr/bin/python3 "$SRC/bench/fix_order.py" "$g" >"${g%.json}_fixed.json"
    fixed+=("${g%.json}_fixed.json")
done
echo "## as generated"
"$B/bench/bench_exact" "$T" 60,70,80,90 "${free[@]}"
echo "## the given order fixed"
"$B/bench/bench_exact" "$T" 60,70,80,90 "${fixed[@]}"
