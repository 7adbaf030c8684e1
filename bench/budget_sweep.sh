#!/usr/bin/env bash
# budget_sweep.sh: memtris budget --sweep (greedy, 16 points) with its two series, recompute
# only and with offload, on the training samples and generated training steps: each series'
# bound and least budget with a plan (as shares of the budget-free peak), the extra time
# there, and the wall time of the two-series sweep against --allow recompute alone.
# Usage: bench/budget_sweep.sh MEMTRIS SOURCE_DIR [NODES...] (default gen train 200 1000 20000,
# --seed 1).
set -u
M=${1:?usage: $0 MEMTRIS SOURCE_DIR [NODES...]}
SRC=${2:?usage: $0 MEMTRIS SOURCE_DIR [NODES...]}
shift 2
[ $# -gt 0 ] || set -- 200 1000 20000
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
graphs=("$SRC/samples/resnet18_train.json" "$SRC/samples/transformer_block_train.json")
for n in "$@"; do
    "$M" gen train --nodes "$n" --seed 1 -o "$TMP/train$n.json" || exit 1
    graphs+=("$TMP/train$n.json")
done
echo "| graph | series | bound | least plan | extra there (of step) | gap there | sweep s |"
echo "|---|---|---|---|---|---|---|"
for g in "${graphs[@]}"; do
    s0=$(date +%s.%N)
    "$M" budget "$g" --sweep --format json >"$TMP/two.json" || exit 1
    s1=$(date +%s.%N)
    "$M" budget "$g" --sweep --allow recompute --format json >"$TMP/one.json" || exit 1
    s2=$(date +%s.%N)
    /usr/bin/python3 - "$TMP/two.json" "$(basename "$g" .json)" "$s0" "$s1" "$s2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
name, s0, s1, s2 = sys.argv[2], *map(float, sys.argv[3:6])
peak, step = d["budget_free_peak"], d["step_ms"]
for label, s, secs in (("recompute only", d, "%.2f (alone: %.2f)" % (s1 - s0, s2 - s1)),
                       ("with offload", d["with_offload"], "")):
    pct = lambda b: "%.1f%%" % (100 * b / peak)
    least = s["least_plan_budget"]
    p = [p for p in s["points"] if p["budget"] == least]
    if p:
        p = p[0]
        extra = "%.4g ms (%s)" % (p["extra_ms"], "%.1f%%" % (100 * p["extra_ms"] / step) if step else "-")
        gap = "optimal" if p["gap"] == 0 else "?" if p["gap"] is None else "%.0f%%" % (100 * p["gap"])
        cells = (pct(least), extra, gap)
    else:
        cells = ("none", "-", "-")
    print("| %s | %s | %s | %s | %s | %s | %s |" % ((name, label, pct(s["least_budget_bound"])) + cells + (secs,)))
PY
done
