#!/bin/bash
# bench_gaps.sh: exact's gaps on issue 46's graphs. Generates `gen randwire
# -n 1000` seeds 1-5 and `-n 600` seeds 1-3, runs `schedule -p exact
# --time-limit $LIMIT` (default 10, wall clock) on each and prints a Markdown
# table: the seed, the proven bound, the best peak, the gap as `schedule`
# prints it, proven or not, why it stopped, the states kept, the wall seconds
# and the target (5% for n 1000; proven for n 600) and whether it is met. The
# load average (uptime) goes before and after the table.
# With CPU=1 the same graphs go to BUILD/bench/bench_sched_exact instead (the
# limit in CPU seconds of the process: what the search reaches whatever the
# load), BUILD the directory of MEMTRIS.
#
# Usage: bench/bench_gaps.sh [MEMTRIS] (default build/memtris).
set -eu

BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
M=${1:-$ROOT/build/memtris}
LIMIT=${LIMIT:-10}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

SPECS="1000:1 1000:2 1000:3 1000:4 1000:5 600:1 600:2 600:3"
for spec in $SPECS; do
    "$M" gen randwire -n "${spec%%:*}" --seed "${spec##*:}" -o "$TMP/rw${spec%%:*}-${spec##*:}.json"
done
echo "load: $(uptime)"
echo
if [ "${CPU:-0}" = 1 ]; then
    echo "(CPU seconds: $LIMIT each)"
    files=()
    for spec in $SPECS; do files+=("$TMP/rw${spec%%:*}-${spec##*:}.json"); done
    "$(dirname "$M")/bench/bench_sched_exact" "$LIMIT" "${files[@]}"
    echo
    echo "load: $(uptime)"
    exit 0
fi
echo "| graph | seed | bound | best | gap | proven | stopped | states | wall s | target |"
echo "|---|---:|---:|---:|---:|---|---|---:|---:|---|"
for spec in $SPECS; do
    n=${spec%%:*} seed=${spec##*:}
    g=$TMP/rw$n-$seed.json
    t0=$(date +%s.%N)
    "$M" schedule "$g" -p exact --time-limit "$LIMIT" --format json >"$TMP/out.json"
    t1=$(date +%s.%N)
    python3 - "$TMP/out.json" "$n" "$seed" "$t0" "$t1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n, seed = int(sys.argv[2]), sys.argv[3]
wall = float(sys.argv[5]) - float(sys.argv[4])
peak, lb = d["peak"], d["lower_bound"]
gap = 100.0 * (peak - lb) / lb if lb else 0.0
proven = d.get("proven_optimal", False)
search = d.get("search", {})
met = proven or (n == 1000 and gap <= 5.0)
mib = lambda b: "%.2f MiB" % (b / 1048576.0)
print("| randwire %d | %s | %s | %s | %.2f%% | %s | %s | %s | %.1f | %s: %s |" % (
    n, seed, mib(lb), mib(peak), gap, "yes" if proven else "no",
    search.get("stopped", "?"), search.get("states", "?"), wall,
    "5%" if n == 1000 else "proven", "met" if met else "**missed**"))
PY
done
echo
echo "load: $(uptime)"
