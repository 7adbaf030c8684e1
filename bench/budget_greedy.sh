#!/usr/bin/env bash
# budget_greedy.sh: memtris budget --solver greedy on a big generated training step: for each
# budget (a share of the budget-free peak) and --allow, found or not, peak, reruns, offloaded
# bytes, extra time and the command's wall time (loading, the given order's plan, the two
# baselines, greedy and the checker's replays included).
# Usage: bench/budget_greedy.sh MEMTRIS [NODES] (default 1000000, gen train --seed 1).
set -u
M=${1:?usage: $0 MEMTRIS [NODES]}
N=${2:-1000000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
"$M" gen train --nodes "$N" --seed 1 -o "$TMP/train.json" || exit 1
printf '%-7s %-18s %-5s %10s %8s %10s %12s %7s\n' pct allow fit peak_MiB reruns off_MiB \
    extra_ms secs
for p in 95 90 85 80 70 60 50; do
    for a in recompute recompute,offload; do
        start=$(date +%s.%N)
        "$M" budget "$TMP/train.json" --budget $p% --solver greedy --allow $a --format json \
            >"$TMP/o.json" 2>/dev/null
        end=$(date +%s.%N)
        /usr/bin/python3 - "$TMP/o.json" $p $a "$start" "$end" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
secs = float(sys.argv[5]) - float(sys.argv[4])
if d["feasible"]:
    row = ("yes", "%.1f" % (d["peak"] / 2**20), str(d["reruns"]),
           "%.1f" % (d["offloaded_bytes"] / 2**20), "%.3f" % d["extra_ms"])
else:
    row = ("no", "-", "-", "-", "-")
print("%-7s %-18s %-5s %10s %8s %10s %12s %7.2f" % ((sys.argv[2] + "%", sys.argv[3]) + row + (secs,)))
PY
    done
done
