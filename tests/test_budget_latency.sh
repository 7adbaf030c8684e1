#!/usr/bin/env bash
# test_budget_latency.sh: graphs whose compute nodes take no time (no Latency, or all 0): every
# rerun costs 0 ms, and budget (text: a line; JSON: "latency": false and the "warning"), its
# sweep (text, JSON, SVG: the claim "65% less memory for 15% more time" not judged, no mark for
# it) and whatif say so in the same words; with Latency none of it, the claim judged and drawn.
# Usage: test_budget_latency.sh MEMTRIS SOURCE_DIR [GROUP]. Needs python3. Prints "N passed,
# M failed".
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 MEMTRIS SOURCE_DIR [GROUP]" >&2
    exit 2
fi
M=$1
SRC=$2
GROUP=${3:-all}
. "$(dirname "$0")/clilib.sh" budget_latency

WORDS="the graph has no Latency: every plan costs 0 ms; export with --latency flops|measure"
COPIES="the graph has no Latency: every rerun costs 0 ms, only copies take time; export with --latency flops|measure"

# expect_line FILE LINE DESC: LINE is a whole line of FILE.
expect_line() {
    if grep -qxF -- "$2" "$1"; then ok; else bad "$3: the line '$2' not in $(basename "$1")"; fi
}

# expect_re FILE ERE DESC
expect_re() {
    if grep -qE -- "$2" "$1"; then ok; else bad "$3: /$2/ not in $(basename "$1")"; fi
}

# GRAPH OUT [zero]: GRAPH without its Latency (zero: every Latency 0 instead).
strip() {
    python3 - "$1" "$2" "${3:-}" <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))
for n in g["Nodes"]:
    if sys.argv[3] == "zero" and "Latency" in n:
        n["Latency"] = 0
    else:
        n.pop("Latency", None)
json.dump(g, open(sys.argv[2], "w"))
PY
}

setup() {
    "$M" gen train -n 200 --seed 1 -o "$TMP/timed.json" || exit 1
    strip "$TMP/timed.json" "$TMP/none.json"
    strip "$TMP/timed.json" "$TMP/zero.json" zero
}

# budget: the line in the text, the fields in the JSON (with and without a plan).
group_budget() {
    setup
    for g in none zero; do
        run "$M" budget "$TMP/$g.json" --budget 70% --solver greedy
        expect_rc 0 "$g: budget 70%"
        expect_line "$OUT" "$WORDS" "$g: budget's text says it"
        expect_re "$OUT" "^extra time 0 ms: " "$g: 0 ms"
        run "$M" budget "$TMP/$g.json" --budget 70% --solver greedy --format json
        expect_rc 0 "$g: budget 70% JSON"
        py "$g: budget's JSON says it" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["latency"] is False and d["warning"] == sys.argv[2], d
assert d["reruns"] > 0 and d["extra_ms"] == 0, d
' "$OUT" "$WORDS"
    done
    # with offload the copies take time: the words say so
    run "$M" budget "$TMP/none.json" --budget 40% --allow recompute,offload --solver greedy \
        --format json
    expect_rc 0 "none: budget 40% with offload"
    py "none: with offload, only copies take time" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["latency"] is False and d["warning"] == sys.argv[2], d
assert d["offloaded_bytes"] > 0 and d["extra_ms"] > 0, d
' "$OUT" "$COPIES"
    run "$M" budget "$TMP/none.json" --budget 40% --allow recompute,offload --solver greedy
    expect_line "$OUT" "$COPIES" "none: with offload, the text"
    # no plan: the JSON says it all the same
    run "$M" budget "$TMP/none.json" --budget 1% --solver greedy --format json
    expect_rc 1 "none: budget 1%"
    py "none: no plan, the JSON says it" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["feasible"] is False and d["latency"] is False and d["warning"] == sys.argv[2], d
' "$OUT" "$WORDS"
    # with Latency: nothing said
    run "$M" budget "$TMP/timed.json" --budget 70% --solver greedy
    expect_rc 0 "timed: budget 70%"
    if grep -q "no Latency" "$OUT"; then bad "timed: budget says no Latency"; else ok; fi
    run "$M" budget "$TMP/timed.json" --budget 70% --solver greedy --format json
    py "timed: latency true, no warning" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["latency"] is True and d["warning"] is None and d["extra_ms"] > 0, d
' "$OUT"
}

# The sweep: the words, and the claim not judged (text, JSON, SVG); judged with Latency.
group_sweep() {
    setup
    run "$M" budget "$TMP/none.json" --sweep --points 6 --solver greedy
    expect_rc 0 "none: sweep"
    expect_line "$OUT" "$COPIES" "none: the sweep's text says it (two series: with copies)"
    expect_re "$OUT" "^65% less memory for 15% more time, as checkpointing is said to give: not judged without Latency \(a budget of [0-9.]+ [KMG]?i?B\)\$" \
        "none: the claim not judged"
    run "$M" budget "$TMP/none.json" --sweep --points 6 --allow recompute --solver greedy \
        --format json --svg "$TMP/none.svg"
    expect_rc 0 "none: sweep JSON and SVG"
    py "none: the sweep's JSON and SVG" '
import json, sys, xml.etree.ElementTree as ET
d = json.load(open(sys.argv[1]))
assert d["latency"] is False and d["warning"] == sys.argv[3], d
assert d["seed_claim"]["judged"] is False, d["seed_claim"]
assert all(p["extra_ms"] == 0 for p in d["points"] if p["feasible"]), d["points"]
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[2]).getroot()
warn = [t for t in root.iter(ns + "text") if t.get("class") == "warning"]
assert [t.text for t in warn] == [sys.argv[3]], [t.text for t in warn]
assert not [r for r in root.iter(ns + "rect") if r.get("class") == "claim"], "a claim mark"
legend = [t.text for t in root.iter(ns + "text") if t.get("class") == "legend"]
assert "not judged: no Latency" in legend, legend
# the warning clear of the percentages over the plot
ys = [float(t.get("y")) for t in root.iter(ns + "text") if (t.text or "").endswith("%")
      and t.get("text-anchor") == "middle"]
assert ys and all(y - float(warn[0].get("y")) >= 14 for y in ys), (ys, warn[0].get("y"))
' "$OUT" "$TMP/none.svg" "$WORDS"
    run "$M" budget "$TMP/timed.json" --sweep --points 6 --solver greedy --format json \
        --svg "$TMP/timed.svg"
    expect_rc 0 "timed: sweep"
    py "timed: the claim judged and drawn, no warning" '
import json, sys, xml.etree.ElementTree as ET
d = json.load(open(sys.argv[1]))
assert d["latency"] is True and d["warning"] is None and d["seed_claim"]["judged"] is True, d
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[2]).getroot()
assert not [t for t in root.iter(ns + "text") if t.get("class") == "warning"]
assert len([r for r in root.iter(ns + "rect") if r.get("class") == "claim"]) == 1
' "$OUT" "$TMP/timed.svg"
    run "$M" budget "$TMP/timed.json" --sweep --points 6 --solver greedy
    expect_re "$OUT" "^65% less memory for 15% more time, as checkpointing is said to give: a budget of [0-9.]+ [KMG]?i?B for [0-9.]+ ms extra\$" \
        "timed: the claim's figures"
    if grep -q "no Latency" "$OUT"; then bad "timed: the sweep says no Latency"; else ok; fi
}

# whatif: the same words, text and JSON.
group_whatif() {
    setup
    run "$M" whatif "$TMP/none.json"
    expect_rc 0 "none: whatif"
    expect_line "$OUT" "time: $WORDS" "none: whatif's text says it in budget's words"
    run "$M" whatif "$TMP/zero.json" --format json
    expect_rc 0 "zero: whatif JSON"
    py "zero: whatif JSON" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["has_latency"] is False and d["warning"] == sys.argv[2], d
' "$OUT" "$WORDS"
    run "$M" whatif "$TMP/timed.json" --format json
    py "timed: whatif JSON, no warning" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["has_latency"] is True and d["warning"] is None, d
' "$OUT"
}

run_groups
