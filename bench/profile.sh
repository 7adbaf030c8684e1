#!/bin/sh
# profile.sh: perf profile of bench_core loading and scheduling one graph
# (default bench/data/random-1M.json; run bench/run.sh first). Writes
# bench/out/perf.data and prints the flat profile and the callers of hot spots.
set -eu
BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
FILE=${1:-$BENCH/data/random-1M.json}
cmake -S "$ROOT" -B "$BENCH/out/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF >/dev/null && make -s -C "$BENCH/out/build" bench_core >/dev/null
perf record -F 999 --call-graph dwarf,16384 -o "$BENCH/out/perf.data" \
    "$BENCH/out/build/bench/bench_core" --runs 1 --sched-repeat 1 --no-ref "$FILE" >/dev/null
perf report -i "$BENCH/out/perf.data" --stdio --no-children --sort dso,sym 2>/dev/null \
    | grep -E '^ +[0-9]' | head -40
echo "--- inclusive (children) ---"
perf report -i "$BENCH/out/perf.data" --stdio --children --sort sym 2>/dev/null \
    | grep -E '^ +[0-9]' | head -60
