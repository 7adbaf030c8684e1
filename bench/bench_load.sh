#!/bin/bash
# bench_load.sh: the graph loader's speed (issue 46 items 1-2). Generates randwire graphs of
# 300k and 1M nodes and a random graph of 300k nodes (seed 1) into a temporary folder, runs
# `memtris validate` on each RUNS times (default 3) under /usr/bin/time and prints, per
# binary, the best wall and the best CPU time (user + sys), MB/s of each (10^6 bytes / best
# time) and the max RSS. Then the seed comparison: `memtris schedule -p priority -f json` on
# the random 300k graph against the seed's Python (tests/seed_reference.py --peak, heapq),
# same run, and their ratio. With PHASES=1 also bench_core's per-phase load line (BUILD's
# bench/bench_core, when built).
#
#   bench/bench_load.sh BUILD [BEFORE_BUILD]
#
# BUILD (and BEFORE_BUILD, e.g. a build of the main branch in another folder): build folders
# holding memtris. Environment: RUNS (default 3), SIZES (randwire node counts, default
# "300000 1000000"), SEED_N (the random graph's nodes, default 300000; 0: no seed
# comparison), PYTHON (default /usr/bin/python3). The machine is shared: the CPU time is the
# figure to compare; the load average is printed.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: bench/bench_load.sh BUILD [BEFORE_BUILD]" >&2
    exit 2
fi
ROOT=$(cd "$(dirname "$0")/.." && pwd)
AFTER=$1/memtris
BEFORE=${2:+$2/memtris}
RUNS=${RUNS:-3}
SIZES=${SIZES:-"300000 1000000"}
SEED_N=${SEED_N:-300000}
PYTHON=${PYTHON:-/usr/bin/python3}
for b in "$AFTER" ${BEFORE:+"$BEFORE"}; do
    [ -x "$b" ] || { echo "bench_load.sh: $b: no memtris binary there" >&2; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# best LABEL BYTES CMD...: RUNS runs of CMD (stdout dropped); one table row.
best() {
    label=$1 bytes=$2
    shift 2
    : >"$TMP/runs"
    for _ in $(seq "$RUNS"); do
        /usr/bin/time -f '%e %U %S %M' -o "$TMP/time" "$@" >/dev/null
        cat "$TMP/time" >>"$TMP/runs"
    done
    awk -v l="$label" -v b="$bytes" '
        NR == 1 { w = $1; c = $2 + $3; r = $4 }
        { if ($1 < w) w = $1; if ($2 + $3 < c) c = $2 + $3; if ($4 > r) r = $4 }
        END {
            if (w < 0.005) w = 0.005
            if (c < 0.005) c = 0.005
            printf "| %s | %.1f | %.2f | %.0f | %.2f | %.0f | %.1f |\n", l, b / 1e6, w,
                b / 1e6 / w, c, b / 1e6 / c, r / 1024
        }' "$TMP/runs"
}

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load: $(uptime | sed 's/.*load average: //')"
echo "after: $AFTER${BEFORE:+   before: $BEFORE}"
FILES=
for n in $SIZES; do
    "$AFTER" gen randwire -n "$n" --seed 1 -o "$TMP/randwire-$n.json"
    FILES="$FILES $TMP/randwire-$n.json"
done
echo
echo "\`memtris validate FILE\`, best of $RUNS (wall and CPU = user + sys; MB = 10^6 bytes):"
echo
echo "| binary, graph | MB | wall s | MB/s (wall) | CPU s | MB/s (CPU) | max RSS MiB |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for f in $FILES; do
    bytes=$(wc -c <"$f")
    g=$(basename "$f" .json)
    [ -z "$BEFORE" ] || best "before, $g" "$bytes" "$BEFORE" validate "$f"
    best "after, $g" "$bytes" "$AFTER" validate "$f"
done
if [ "${PHASES:-0}" = 1 ] && [ -x "$1/bench/bench_core" ]; then
    echo
    echo "bench_core's load phases (after; one run each):"
    for f in $FILES; do "$1/bench/bench_core" -r 1 -k 1 -n "$f"; done
fi

if [ "$SEED_N" != 0 ]; then
    f=$TMP/random-$SEED_N.json
    "$AFTER" gen random -n "$SEED_N" --seed 1 -o "$f"
    bytes=$(wc -c <"$f")
    echo
    echo "Seed comparison on random-$SEED_N (seed 1), best of $RUNS:"
    echo
    echo "| command | MB | wall s | MB/s (wall) | CPU s | MB/s (CPU) | max RSS MiB |"
    echo "|---|---:|---:|---:|---:|---:|---:|"
    best "seed Python (heapq): seed_reference.py --peak" "$bytes" \
        "$PYTHON" "$ROOT/tests/seed_reference.py" --peak "$f" | tee "$TMP/py"
    [ -z "$BEFORE" ] || best "before: memtris schedule -p priority -f json" "$bytes" \
        "$BEFORE" schedule -p priority -f json "$f" | tee "$TMP/before"
    best "after: memtris schedule -p priority -f json" "$bytes" \
        "$AFTER" schedule -p priority -f json "$f" | tee "$TMP/after"
    echo
    for which in ${BEFORE:+before} after; do
        awk -F'|' -v w="$which" 'FNR == 1 && NR == 1 { pw = $4; pc = $6 }
            FNR == 1 && NR > 1 { printf "%s: memtris is %.1fx the seed Python by wall, %.1fx by CPU\n",
                                 w, pw / $4, pc / $6 }' "$TMP/py" "$TMP/$which"
    done
fi
echo
echo "== done, load: $(uptime | sed 's/.*load average: //')"
