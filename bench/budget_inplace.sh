#!/bin/bash
# budget_inplace.sh: memory budgets where ReLUs change their input in place: greedy's sweep and
# exact at a few budgets on bench/inplace_chain.py's training chains (L layers), and greedy's
# sweep on the training samples; with a second memtris (OLD), the same beside it (a build from
# before the versions of buffers changed in place, to compare).
#
# Usage: bench/budget_inplace.sh MEMTRIS [OLD_MEMTRIS] (from the repository root).
set -u
M=${1:?usage: bench/budget_inplace.sh MEMTRIS [OLD_MEMTRIS]}
OLD=${2:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PY=python3
for L in 8 32; do
    "$PY" bench/inplace_chain.py $L > "$TMP/chain$L.json" || exit 1
done
row() { # BIN FILE PCT SOLVER: pct found peak_MiB extra_ms reruns proven seconds
    local t0 t1 out
    t0=$EPOCHREALTIME
    out=$("$1" budget "$2" --budget "$3%" --solver "$4" --time-limit 20 --format json 2>/dev/null)
    t1=$EPOCHREALTIME
    printf '%s' "$out" | "$PY" -c '
import json, sys
d = json.loads(sys.stdin.read() or "{}")
f = d.get("feasible")
print("%-5s %-7s %-6s %9s %9s %6s %-6s %7.2f" % (sys.argv[1] + "%", sys.argv[2], f,
      "%.1f" % (d["peak"] / 2**20) if f else "-", "%.2f" % d["extra_ms"] if f else "-",
      d.get("reruns", "-") if f else "-", d.get("proven_optimal", d.get("proven_infeasible")),
      float(sys.argv[4]) - float(sys.argv[3])))' "$3" "$4" "$t0" "$t1"
}
for L in 8 32; do
    for bin in "$M" $OLD; do
        echo "== chain of $L layers, $bin"
        echo "budget solver  found  peak MiB  extra ms reruns proven  seconds"
        for p in 50 60 70 80 90; do
            row "$bin" "$TMP/chain$L.json" $p greedy
            [ "$L" = 8 ] && row "$bin" "$TMP/chain$L.json" $p exact
        done
    done
done
for s in resnet18_train transformer_block_train; do
    for bin in "$M" $OLD; do
        echo "== samples/$s.json, $bin"
        "$bin" budget "samples/$s.json" --sweep --points 12 2>/dev/null | sed -n '3,20p'
    done
done
