#!/bin/bash
# bench_minimalloc.sh: memtris's placers on MiniMalloc's challenging problems
# (../shared/benchmarks/minimalloc, or $MINIMALLOC): converts each CSV with
# minimalloc2json.py into bench/data/minimalloc/, then runs `memtris plan
# --align 1 --format json` with each placer and prints a Markdown row per
# problem: arena, % over 1048576 (the capacity every problem fits in) and
# wall time (best of $RUNS, default 1).
#
# Usage: bench/bench_minimalloc.sh [MEMTRIS] (default build/memtris);
# PLACERS (default "greedy-size xla greedy-conflicts best").
set -eu

BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
MEMTRIS=${1:-$ROOT/build/memtris}
SET=${MINIMALLOC:-$ROOT/../shared/benchmarks/minimalloc}
[ -d "$SET" ] || SET=/work/shared/benchmarks/minimalloc
PLACERS=${PLACERS:-"greedy-size xla greedy-conflicts best"}
RUNS=${RUNS:-1}
CAP=1048576
DATA=$BENCH/data/minimalloc
mkdir -p "$DATA"

printf '| problem | buffers |'
for p in $PLACERS; do printf ' %s |' "$p"; done
printf '\n|---|---:|'
for p in $PLACERS; do printf -- '---:|'; done
printf '\n'
for csv in "$SET"/*.csv; do
    name=$(basename "$csv" .csv)
    name=${name%%.*}
    json=$DATA/$name.json
    [ -s "$json" ] && [ "$json" -nt "$csv" ] || python3 "$BENCH/minimalloc2json.py" "$csv" "$json"
    printf '| %s | %d |' "$name" "$(($(wc -l <"$csv") - 1))"
    for p in $PLACERS; do
        best=
        arena=
        i=0
        while [ $i -lt "$RUNS" ]; do
            out=$DATA/$name.$p.out
            t=$( { TIMEFORMAT=%R; time "$MEMTRIS" plan "$json" --placer "$p" --align 1 \
                --format json >"$out"; } 2>&1)
            arena=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["arena"])' "$out")
            if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
            i=$((i + 1))
        done
        printf ' %d %+.1f%%, %.3f s |' "$arena" "$(echo "($arena - $CAP) * 100 / $CAP" | bc -l)" "$best"
    done
    printf '\n'
done
