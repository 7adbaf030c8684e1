#!/usr/bin/env bash
# test_budget_sweep.sh: end-to-end checks of "memtris budget --sweep"'s two series: without
# --allow, recompute only and with offload side by side at the same budgets, from the lower
# of their bounds (JSON: both series monotone, with_offload beside the first series' keys;
# the text's second columns and least budgets; the SVG's two curves, bounds and legend; a
# point is the plan of --budget), and an explicit --allow keeping one series. The sweep's
# other checks are test_budget.sh's group_sweep.
# Usage: test_budget_sweep.sh MEMTRIS SOURCE_DIR [GROUP]. Needs python3. Prints "N passed,
# M failed".
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 MEMTRIS SOURCE_DIR [GROUP]" >&2
    exit 2
fi
M=$1
SRC=$2
GROUP=${3:-all}
. "$(dirname "$0")/clilib.sh" budget_sweep

# MONO FILE N [SERIES]: each series (the first at the top, with_offload beside it) at the
# same budgets, from the lower bound of the two, monotone, its least budget with a plan.
MONO='
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert set(d) >= {"budget_free_peak", "step_ms", "solver", "points", "chen_sqrt_n", "seed_claim",
                  "with_offload", "least_plan_budget"}
series = [d] + ([d["with_offload"]] if d["with_offload"] is not None else [])
if len(sys.argv) > 3:
    assert len(series) == int(sys.argv[3]), len(series)
if len(series) == 2:
    assert d["allow"] == "recompute" and series[1]["allow"] == "recompute,offload", d["allow"]
lo = min(s["least_budget_bound"] for s in series)
for s in series:
    pts = s["points"]
    assert [p["budget"] for p in pts] == [p["budget"] for p in d["points"]], "budgets differ"
    assert 2 <= len(pts) <= n and pts[0]["budget"] == lo, pts[0]
    assert pts[-1]["budget"] == d["budget_free_peak"] and pts[-1]["feasible"], pts[-1]
    assert pts[-1]["extra_ms"] == 0 and pts[-1]["peak"] == d["budget_free_peak"], pts[-1]
    found = [p["budget"] for p in pts if p["solver_found"]]
    assert s["least_plan_budget"] == (found[0] if found else None), (s["least_plan_budget"], found)
    for a, b in zip(pts, pts[1:]):
        assert a["budget"] < b["budget"], (a, b)
        assert not a["feasible"] or b["feasible"], (a, b)
        if a["feasible"]:
            assert b["extra_ms"] <= a["extra_ms"], ("the extra time rose", a, b)
    for p in pts:
        assert set(p) >= {"budget", "feasible", "peak", "extra_ms", "reruns", "offloaded_bytes"}, p
        if p["budget"] < s["least_budget_bound"]:
            assert not p["feasible"], ("a plan under the bound", p)
        if p["feasible"]:
            assert p["peak"] <= p["plan_budget"] <= p["budget"], p
        if p["solver_found"]:
            assert p["feasible"], p
        if p["feasible"]:  # the bound and the gap it gives
            lb, x = p["lower_bound_ms"], p["extra_ms"]
            assert 0 <= lb <= x, p
            if lb > 0:
                assert abs(p["gap"] - (x - lb) / lb) < 1e-4 * (1 + p["gap"]), p
            else:
                assert p["gap"] == (0 if x == 0 else None), p
        else:
            assert p["lower_bound_ms"] is None and p["gap"] is None, p
c = d["seed_claim"]
assert c["budget"] == int(d["budget_free_peak"] * 0.35), c
assert abs(c["extra_ms"] - 0.15 * d["step_ms"]) < 1e-9, (c, d["step_ms"])
'

# Without --allow: two series on a generated training step (with latencies).
group_two() {
    "$M" gen train -n 200 --seed 1 -o "$TMP/t200s.json"
    run "$M" budget "$TMP/t200s.json" --sweep --points 8
    expect_rc 0 "sweep: two series, text"
    cp "$OUT" "$TMP/two.txt"
    run "$M" budget "$TMP/t200s.json" --sweep --points 8 --format json --svg "$TMP/two.svg"
    expect_rc 0 "sweep: two series"
    cp "$OUT" "$TMP/two.json"
    py "sweep: two series, monotone, each from the lower bound" "$MONO" "$TMP/two.json" 8 2
    py "sweep: two series: with offload reaches below recompute only; the text says both" '
import json, re, sys
d = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
r, o = d, d["with_offload"]
assert o["least_budget_bound"] < r["least_budget_bound"], (o, r["least_budget_bound"])
assert o["least_plan_budget"] < r["least_plan_budget"], (o, r["least_plan_budget"])
assert any(p["offloaded_bytes"] > 0 for p in o["points"] if p["feasible"]), o["points"]
assert all(p["offloaded_bytes"] == 0 for p in r["points"] if p["feasible"]), r["points"]
pct = lambda b: "%.1f%%" % (100 * b / d["budget_free_peak"])
m = re.search(r"the least budget a plan was found for: (\S+) \([^)]*\) recompute only, "
              r"(\S+) \([^)]*\) with offload\n", text)
assert m and m.groups() == (pct(r["least_plan_budget"]), pct(o["least_plan_budget"])), text
assert "recompute only and with offload (allow recompute,offload)" in text, text
lines = text.splitlines()
head = [l for l in lines if "offloaded   gap" in l]
assert len(head) == 1 and head[0].split().count("gap") == 2, head
rows = [l for l in lines if re.match(r"  [0-9.]+ [KMG]?i?B +[0-9.]+%  ", l)]
assert len(rows) == len(r["points"]), rows
pts = r["points"] + o["points"]
assert sum(l.count("no plan found") for l in rows) == sum(not p["feasible"] for p in pts), rows
assert sum(l.count("optimal") for l in rows) == sum(p["gap"] == 0 for p in pts), rows
for l, p, q in zip(rows, r["points"], o["points"]):  # the second series at the line end
    assert bool(re.search(r"no plan found( \([^)]*\))?$", l.rstrip())) == (not q["feasible"]), l
    if not p["feasible"] and q["feasible"]:
        assert l.index("no plan found") < l.index("%", l.index("no plan found")), l
' "$TMP/two.json" "$TMP/two.txt"
    py "sweep: two series: the SVG draws both curves, their bounds and a legend" '
import json, sys, xml.etree.ElementTree as ET
d = json.load(open(sys.argv[2]))
r, o = d["points"], d["with_offload"]["points"]
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
curves = {p.get("class"): p.get("points").split() for p in root.iter(ns + "polyline")}
assert set(curves) == {"curve", "curve-offload"}, set(curves)
assert len(curves["curve"]) == sum(p["feasible"] for p in r) >= 2, curves
assert len(curves["curve-offload"]) == sum(p["feasible"] for p in o) >= 2, curves
cls = [e.get("class") for e in root.iter()]
assert cls.count("none") == sum(not p["feasible"] for p in r), cls
assert cls.count("none-offload") == sum(not p["feasible"] for p in o), cls
bx = {e.get("class"): float(e.get("x1")) for e in root.iter(ns + "line")
      if e.get("class") in ("bound", "bound-offload")}
assert bx["bound-offload"] < bx["bound"], bx
texts = " ".join("".join(t.itertext()) for t in root.iter(ns + "text"))
for w in ("recompute only", "with offload", "no plan below", "Chen", "65% less memory"):
    assert w in texts, (w, texts)
' "$TMP/two.svg" "$TMP/two.json"
    # A point of the second series is what --allow recompute,offload finds at its budget.
    py "sweep: two series: a point with offload is the plan of --budget" '
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
p = [p for p in d["with_offload"]["points"] if p["solver_found"] and p["offloaded_bytes"] > 0][0]
one = json.loads(subprocess.run([sys.argv[2], "budget", sys.argv[3], "--budget", str(p["budget"]),
                 "--allow", "recompute,offload", "--solver", d["solver"], "--format", "json"],
                 capture_output=True).stdout)
assert one["peak"] == p["peak"] and one["extra_ms"] == p["extra_ms"], (one, p)
' "$TMP/two.json" "$M" "$TMP/t200s.json"
}

# An explicit --allow keeps one series, from its own bound: no second columns or curve.
group_one() {
    "$M" gen train -n 200 --seed 1 -o "$TMP/t200s.json"
    run "$M" budget "$TMP/t200s.json" --sweep --points 8 --allow recompute,offload --format json
    expect_rc 0 "sweep --allow recompute,offload: one series"
    py "sweep --allow recompute,offload: one series, monotone, from its bound" "$MONO" "$OUT" 8 1
    run "$M" budget "$TMP/t200s.json" --sweep --points 8 --allow recompute --svg "$TMP/one.svg"
    expect_rc 0 "sweep --allow recompute: one series"
    py "sweep --allow recompute: one series in the text and the SVG" '
import re, sys, xml.etree.ElementTree as ET
text = open(sys.argv[1]).read()
assert "with offload" not in text and "recompute only" not in text, text
assert re.search(r"\nthe least budget a plan was found for: [0-9.]+% \([^)]*\)\n", text), text
assert "solver greedy, allow recompute\n" in text, text
assert [l for l in text.splitlines() if "offloaded" in l][0].rstrip().endswith("offloaded   gap")
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[2]).getroot()
assert [p.get("class") for p in root.iter(ns + "polyline")] == ["curve"]
assert [e.get("class") for e in root.iter(ns + "line") if e.get("class")] == ["bound"]
' "$OUT" "$TMP/one.svg"
}

run_groups
