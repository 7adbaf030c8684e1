#!/bin/bash
# bench_gaps.sh: exact's gaps on issue 24's graphs. Generates `gen randwire
# -n 1000` seeds 1-5 and `-n 600 --seed 1`, runs `schedule -p exact
# --time-limit $LIMIT` (default 10) on each and prints a Markdown table: the
# peak, the proven bound, the gap as `schedule` prints it, why it stopped,
# the target (10%; 2% or proven for n 600) and whether it is met.
#
# Usage: bench/bench_gaps.sh [MEMTRIS] (default build/memtris).
set -eu

BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
M=${1:-$ROOT/build/memtris}
LIMIT=${LIMIT:-10}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "| graph | peak | bound | gap | stopped | target |"
echo "|---|---:|---:|---:|---|---|"
for spec in "1000 1" "1000 2" "1000 3" "1000 4" "1000 5" "600 1"; do
    set -- $spec
    g=$TMP/rw$1-$2.json
    "$M" gen randwire -n "$1" --seed "$2" -o "$g"
    "$M" schedule "$g" -p exact --time-limit "$LIMIT" --format json >"$TMP/out.json"
    python3 - "$TMP/out.json" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n, seed = int(sys.argv[2]), sys.argv[3]
peak, lb = d["peak"], d["lower_bound"]
gap = 100.0 * (peak - lb) / lb if lb else 0.0
proven = d.get("proven_optimal", False)
target = 2.0 if n == 600 else 10.0
met = proven or gap <= target
stopped = d.get("search", {}).get("stopped", "?")
mib = lambda b: "%.1f MiB" % (b / 1048576.0)
print("| randwire %d seed %s | %s | %s | %s | %s | %s%%: %s |" % (
    n, seed, mib(peak), mib(lb), "proven" if proven else "%.2f%%" % gap,
    stopped, ("%g" % target), "met" if met else "**missed**"))
PY
done
