#!/usr/bin/env bash
# budget_exact.sh: memtris budget's solvers side by side: for each graph and budget (a share of
# the budget-free peak), greedy, exact (at --time-limit, its proof or its gap) and best: found
# or not, extra time, proven ("infeas": no plan fits, proven), lower bound and wall time
# (loading and Chen's baseline included); Chen's sqrt(n) extra time beside (at its own peak).
# Usage: bench/budget_exact.sh MEMTRIS [TIME_LIMIT] [GRAPH...]
# (default: the two training samples and gen train of 200 and 1000 nodes, seed 1).
set -u
M=${1:?usage: $0 MEMTRIS [TIME_LIMIT] [GRAPH...]}
T=${2:-10}
shift $(($# > 1 ? 2 : 1))
SRC=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
graphs=("$@")
if [ ${#graphs[@]} -eq 0 ]; then
    graphs=("$SRC/samples/resnet18_train.json" "$SRC/samples/transformer_block_train.json")
    for n in 200 1000; do
        "$M" gen train --nodes $n --seed 1 -o "$TMP/train$n.json" && graphs+=("$TMP/train$n.json")
    done
fi
printf '%-30s %4s %-7s %-5s %12s %-6s %12s %7s %12s\n' graph pct solver fit extra_ms proven \
    lower_bound secs chen_extra
for g in "${graphs[@]}"; do
    for p in 95 85 75 65; do
        for s in greedy exact best; do
            start=$(date +%s.%N)
            "$M" budget "$g" --budget $p% --solver $s --time-limit "$T" --format json \
                >"$TMP/o.json" 2>/dev/null
            end=$(date +%s.%N)
            /usr/bin/python3 - "$TMP/o.json" "$(basename "$g")" $p $s "$start" "$end" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
secs = float(sys.argv[6]) - float(sys.argv[5])
chen = d["chen_sqrt_n"]["extra_ms"] if d.get("chen_sqrt_n") else None
if d["feasible"]:
    row = ("yes", "%.4f" % d["extra_ms"], str(d["proven_optimal"]).lower(),
           "%.4f" % d["lower_bound_ms"])
else:
    row = ("no", "-", "infeas" if d["proven_infeasible"] else "-", "-")
print("%-30s %4s %-7s %-5s %12s %-6s %12s %7.2f %12s" % (sys.argv[2][:30], sys.argv[3],
      sys.argv[4], row[0], row[1], row[2], row[3], secs,
      "-" if chen is None else "%.4f" % chen))
PY
        done
    done
done
