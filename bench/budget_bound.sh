#!/bin/sh
# budget_bound.sh: the lower bound on extra time (budget_bound.c) and the gap of the default
# solver's plan to it, on the training samples and generated training steps, at 50..90% of
# the budget-free peak. Usage: bench/budget_bound.sh MEMTRIS [TIME_LIMIT]
# Prints one row a run: graph, budget %, feasible, extra ms, lower bound ms, gap, proven, s.
set -u
M=${1:?usage: budget_bound.sh MEMTRIS [TIME_LIMIT]}
T=${2:-10}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
here=$(dirname "$0")
"$M" gen train -n 1000 -o "$TMP/train1000.json"
for s in 1 2 3 4 5; do "$M" gen train -n 200 --seed "$s" -o "$TMP/train200_s$s.json"; done
printf '%-28s %4s %-5s %10s %10s %8s %-6s %6s\n' graph pct plan extra_ms bound_ms gap proven s
for f in "$here/../samples/resnet18_train.json" "$here/../samples/transformer_block_train.json" \
    "$TMP/train1000.json" "$TMP"/train200_s*.json; do
    for p in 50 60 70 80 90; do
        t0=$(date +%s.%N)
        "$M" budget "$f" --budget "$p%" --time-limit "$T" --format json >"$TMP/o.json" 2>/dev/null
        t1=$(date +%s.%N)
        python3 - "$TMP/o.json" "$(basename "$f" .json)" "$p" "$t0" "$t1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
name, p, t = sys.argv[2], sys.argv[3], float(sys.argv[5]) - float(sys.argv[4])
if d["feasible"]:
    gap = d["gap"]
    print("%-28s %4s %-5s %10.4f %10.4f %8s %-6s %6.1f" % (name, p, "yes", d["extra_ms"],
          d["lower_bound_ms"], "-" if gap is None else "%.1f%%" % (100 * gap),
          d["proven_optimal"], t))
else:
    print("%-28s %4s %-5s %10s %10s %8s %-6s %6.1f  least %.1f%%%s" % (name, p,
          "none", "-", "-", "-", d["proven_infeasible"], t,
          100 * d["least_budget_bound"] / d["budget_free_peak"],
          "" if d["proven_infeasible"] else " (not proven)"))
PY
    done
done
