#!/bin/bash
# bench_exact.sh: the exact placer against the others. Prints Markdown tables
# of arena over the lower bound and wall time per problem and placer:
#  1. MiniMalloc's challenging set ($MINIMALLOC, default ../shared/benchmarks/
#     minimalloc), read with `memtris place` (their own times, align 1);
#  2. `gen packing` problems of 150, 300 and 450 buffers, seeds 1..$SEEDS
#     (default 10), whose optimum is their capacity;
#  3. the model samples under priority's schedule, align 64;
#  4. every `gen` graph kind at 1000 and 10000 nodes, align 64.
# exact gets --time-limit $LIMIT (default 10) per problem; "proven" marks a
# plan that meets its bound, and the bound is the one exact proved.
#
# Usage: bench/bench_exact.sh [MEMTRIS] (default build/memtris).
set -eu

BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
M=${1:-$ROOT/build/memtris}
SET=${MINIMALLOC:-$ROOT/../shared/benchmarks/minimalloc}
SEEDS=${SEEDS:-10}
LIMIT=${LIMIT:-10}
PLACERS=${PLACERS:-"first-fit best-fit greedy-size best exact"}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# cell CMD...: runs a plan/place command with --format json; prints
# "+X.X% (T s)" against exact's bound (set in $BOUND) or "proven (T s)".
cell() {
    local t0 t1 out=$TMP/out.json
    t0=$(date +%s.%N)
    "$@" --format json >"$out" 2>/dev/null
    t1=$(date +%s.%N)
    python3 - "$out" "$t0" "$t1" "${BOUND:-0}" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = float(sys.argv[3]) - float(sys.argv[2])
bound = max(int(sys.argv[4]), d["lower_bound"])
over = 100.0 * (d["arena"] - bound) / bound if bound else 0.0
mark = "proven" if d["proven_optimal"] else "+%.1f%%" % over
print("%s %.2fs %d %d" % (mark, t, d["arena"], d["lower_bound"]))
EOF
}

# row NAME CMD...: one Markdown row, exact first (its bound is the row's).
row() {
    local name=$1
    shift
    local ex
    ex=$(BOUND=0 cell "$@" --placer exact --time-limit "$LIMIT")
    BOUND=$(echo "$ex" | awk '{print $(NF)}')
    printf '| %s |' "$name"
    for p in $PLACERS; do
        local c
        if [ "$p" = exact ]; then c=$ex; else c=$(cell "$@" --placer "$p"); fi
        printf ' %s |' "$(echo "$c" | awk '{$NF=""; $(NF-1)=""; print}' | sed 's/ *$//')"
    done
    printf '\n'
}

header() {
    printf '\n### %s\n\n| problem |' "$1"
    for p in $PLACERS; do printf ' %s |' "$p"; done
    printf '\n|---|'
    for p in $PLACERS; do printf -- '---:|'; done
    printf '\n'
}

echo "$("$M" --version | head -1); $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores"
echo "Each cell: the arena over the bound exact proved (or proven), and the wall time."
if [ -d "$SET" ]; then
    header "MiniMalloc's challenging set (memtris place, align 1)"
    for csv in "$SET"/*.csv; do
        n=$(basename "$csv" .csv)
        row "${n%%.*} ($(($(wc -l <"$csv") - 1)) buffers)" "$M" place "$csv"
    done
fi
header "gen packing (optimum = capacity 1048576)"
for n in 150 300 450; do
    s=1
    while [ "$s" -le "$SEEDS" ]; do
        "$M" gen packing -n "$n" --seed "$s" --format csv >"$TMP/p.csv"
        row "packing $n seed $s" "$M" place "$TMP/p.csv"
        s=$((s + 1))
    done
done
header "model samples (priority, align 64)"
for f in "$ROOT"/samples/*.json; do
    row "$(basename "$f" .json)" "$M" plan "$f"
done
header "gen graphs (priority, align 64)"
for k in chain branch random randwire; do
    for n in 1000 10000; do
        "$M" gen "$k" -n "$n" --seed 1 >"$TMP/g.json"
        row "$k $n" "$M" plan "$TMP/g.json"
    done
done
