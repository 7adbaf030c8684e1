#!/usr/bin/env bash
# test_budget.sh: end-to-end checks of "memtris budget": bad budgets and options (usage errors,
# status 2), plans as text and JSON (the input graph's Ids and BufIds, replayed here by an
# independent check in Python), infeasible budgets (status 1, "no plan fits in" only when a
# bound or exact's search proves it), -o (the plan as a graph, replayed by schedule -p given),
# --sweep (JSON monotone, text, an SVG that parses), the training samples at 60% and 50% (80%
# by recompute alone), and exact and best: proven optima, a gap under a tiny --max-states,
# infeasibility only the search proves; the chain solver (a chain sample replayed; the why
# of graphs that are not chains).
# Usage: test_budget.sh MEMTRIS SOURCE_DIR [GROUP]. Needs python3. Prints "N passed, M failed".
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 MEMTRIS SOURCE_DIR [GROUP]" >&2
    exit 2
fi
M=$1
SRC=$2
GROUP=${3:-all}
RESNET=$SRC/samples/resnet18_train.json
TRANSFORMER=$SRC/samples/transformer_block_train.json
. "$(dirname "$0")/clilib.sh" budget

# In (an Input) makes x (100 B); A makes y (200 B); B reads y, makes w (300 B); C reads x and
# w, makes z (100 B, kept). Every plan needs 500 B (B's and C's reads and writes); the given
# order peaks at 600 B (x, y and w after B). In 500 B, x must leave while B runs: an Input's
# output cannot be made again, so only offload fits it.
TRIO=$TMP/trio.json
cat >"$TRIO" <<'EOF'
{"Nodes": [
  {"Id": 0, "Op": "ALLOC", "Size": 100, "BufId": 10},
  {"Id": 1, "Op": "Input", "Inputs": [10]},
  {"Id": 2, "Op": "ALLOC", "Size": 200, "BufId": 20},
  {"Id": 3, "Op": "A", "Latency": 5, "Inputs": [20]},
  {"Id": 4, "Op": "ALLOC", "Size": 300, "BufId": 30},
  {"Id": 5, "Op": "B", "Latency": 7, "Inputs": [20, 30]},
  {"Id": 6, "Op": "FREE", "BufId": 20},
  {"Id": 7, "Op": "ALLOC", "Size": 100, "BufId": 40},
  {"Id": 8, "Op": "C", "Latency": 1, "Inputs": [10, 30, 40]},
  {"Id": 9, "Op": "FREE", "BufId": 10},
  {"Id": 10, "Op": "FREE", "BufId": 30}
],
"Edges": [[0, 1], [2, 3], [4, 5], [3, 5], [5, 6], [7, 8], [1, 8], [5, 8], [8, 9], [8, 10]]}
EOF

# A replay of a budget JSON against its graph, apart from memtris: every run's Inputs present
# (its own ALLOC's buffers aside), the peak and the budget, every node run, the extra time; a
# random op that runs again holds its generator state (5072 bytes) from its first run to its
# last.
CHECK='
import json, re, sys
plan, graph = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
runs, last = {}, {}
for k, (op, x) in enumerate(plan["events"]):
    if op == "run":
        runs[x] = runs.get(x, 0) + 1
        last[x] = k
rng = {x for x, c in runs.items() if c > 1
       and re.search("rand|dropout|bernoulli|multinomial", graph_op := next(
           n["Op"] for n in graph["Nodes"] if n["Id"] == x), re.I)
       and not re.search("backward", graph_op, re.I)}
assert plan["rng_states"] == len(rng) and plan["rng_state_bytes"] == 5072 * len(rng), (plan["rng_states"], rng)
nodes = {n["Id"]: n for n in graph["Nodes"]}
size = {n["BufId"]: n["Size"] for n in graph["Nodes"] if n["Op"] == "ALLOC"}
alloc = {n["Id"]: n["BufId"] for n in graph["Nodes"] if n["Op"] == "ALLOC"}
writes = {}
for u, v in graph["Edges"]:
    if u in alloc and nodes[v]["Op"] not in ("ALLOC", "FREE"):
        b = alloc[u]
        if b not in writes or v < writes[b]:
            writes[b] = v
made = {}
for b, v in writes.items():
    made.setdefault(v, set()).add(b)
present, ran, mem, peak, extra, hosted, going = set(), {}, 0, 0, 0.0, set(), 0
for k, (op, x) in enumerate(plan["events"]):
    mem -= going
    going = 0
    if op == "host":  # an Input leaves it on the host: only before every other event
        assert not ran and x not in hosted, (op, x)
        hosted.add(x)
    elif op == "run":
        n = nodes[x]
        need = set(n.get("Inputs", [])) - made.get(x, set())
        assert need <= present, (x, need - present)
        for b in made.get(x, set()) - present - (hosted if n["Op"] == "Input" else set()):
            present.add(b)
            mem += size[b]
        if x in ran:
            extra += n.get("Latency", 0)
        elif x in rng:
            mem += 5072
        if x in rng and k == last[x]:
            going = 5072
        ran[x] = ran.get(x, 0) + 1
    elif op in ("free", "offload"):
        assert x in present, (op, x)
        present.remove(x)
        mem -= size[x]
    else:
        assert x not in present
        present.add(x)
        mem += size[x]
    peak = max(peak, mem)
computes = [i for i, n in nodes.items() if n["Op"] not in ("ALLOC", "FREE")]
assert all(i in ran for i in computes)
assert peak == plan["peak"] <= plan["budget"], (peak, plan["peak"], plan["budget"])
if plan["offloaded_bytes"] == 0 and not hosted:  # else transfers: a timeline
    assert abs(extra - plan["extra_ms"]) < 1e-6, (extra, plan["extra_ms"])
assert sum(c - 1 for c in ran.values()) == plan["reruns"]
'

# usage_error DESC CMD...: status 2, a message on stderr, nothing on stdout.
usage_error() {
    local desc=$1
    shift
    run "$@"
    expect_rc 2 "$desc"
    expect_empty "$OUT" "$desc (stdout)"
    expect_nonempty "$ERR" "$desc (message on stderr)"
}

group_usage() {
    for b in 0 -5 9223372036854775808 99999999999999999999 "50 %" nan "" 1.5x 0% -3% abc%; do
        usage_error "--budget '$b'" "$M" budget "$TRIO" --budget "$b"
    done
    usage_error "--budget missing" "$M" budget "$TRIO"
    usage_error "--solver bogus" "$M" budget "$TRIO" --budget 1K --solver bogus
    usage_error "--allow bad" "$M" budget "$TRIO" --budget 1K --allow swap
    usage_error "--allow empty" "$M" budget "$TRIO" --budget 1K --allow ""
    usage_error "--bandwidth 0" "$M" budget "$TRIO" --budget 1K --bandwidth 0
    usage_error "--format csv" "$M" budget "$TRIO" --budget 1K --format csv
    usage_error "--time-limit 0" "$M" budget "$TRIO" --budget 1K --time-limit 0
    for n in 0 -1 abc 1.5 "" 1000000001 99999999999999999999; do
        usage_error "--max-states '$n'" "$M" budget "$TRIO" --budget 1K --max-states "$n"
    done
    run "$M" budget --help
    expect_rc 0 "budget --help"
    expect_grep "$OUT" "Usage: memtris budget FILE --budget SIZE" "--help: usage"
    expect_grep "$OUT" "--solver NAME" "--help: the solver option"
    expect_grep "$OUT" "one of the solvers below (default best" "--help: the default solver"
    expect_grep "$OUT" "--max-states N" "--help: --max-states"
    # The solvers' list, from the table: each name with its description.
    expect_grep "$OUT" "Solvers (memtris(1), BUDGETS" "--help: the solvers' list"
    expect_grep "$OUT" "  best       the least extra time" "--help: best"
    expect_grep "$OUT" "  greedy     DTR's eviction" "--help: greedy"
    expect_grep "$OUT" "  chain      rotor's dynamic programme" "--help: chain"
    expect_grep "$OUT" "  exact      an A* search" "--help: exact"
    # The man page's --solver list is --help's (the table's), in its order.
    want=$(awk '/^Solvers/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }' "$OUT")
    got=$(awk '/is one of these/ { on = 1; next } on && /^\.RE/ { on = 0 }
               on && tag { print $2; tag = 0; next } on && /^\.TP/ { tag = 1 }' "$SRC/man/memtris.1")
    if [ "$(echo $want)" = "best greedy chain repair exact" ]; then ok
    else bad "budget --help lists the solvers $(echo $want)"; fi
    if [ "$want" = "$got" ]; then ok
    else bad "man/memtris.1's --solver list ($(echo $got)) is not --help's ($(echo $want))"; fi
    run "$M" budget "$TRIO" --budget 1K --solver tetris
    expect_rc 2 "--solver tetris"
    expect_grep "$ERR" "unknown solver 'tetris' (best, greedy, chain, repair, exact)" "--solver tetris: the list"
    run "$M" --help
    expect_grep "$OUT" "  budget" "memtris --help lists budget"
}

group_plans() {
    # At the budget-free peak (600 B): the given order, proven optimal.
    run "$M" budget "$TRIO" --budget 100% --format json
    expect_rc 0 "100%"
    cp "$OUT" "$TMP/full.json"
    py "100%: the given order" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["budget"] == d["budget_free_peak"] == d["peak"] == 600, d
assert d["extra_ms"] == 0 and d["proven_optimal"] and d["lower_bound_ms"] == 0, d
assert d["events"][0] == ["run", 1] and ["free", 20] in d["events"], d["events"]
assert set(d) >= {"budget", "feasible", "peak", "extra_ms", "reruns", "offloaded_bytes",
                  "proven_optimal", "lower_bound_ms", "events"}, d
assert d["chen_sqrt_n"] is None and d["cheap_recompute"] is None, d  # no Phases
' "$TMP/full.json"
    py "100%: replayed" "$CHECK" "$TMP/full.json" "$TRIO"
    # 500 B: offload x to the host while B runs.
    run "$M" budget "$TRIO" --budget 500 --allow recompute,offload --bandwidth 1000 --format json \
        --solver greedy
    expect_rc 0 "500 B with offload"
    cp "$OUT" "$TMP/off.json"
    py "500 B: x starts on the host and is fetched" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["events"][0] == ["host", 10] and ["fetch", 10] in d["events"], d["events"]
assert all(e[0] != "offload" for e in d["events"]) and d["initial"] == 0, d
# 1000 B/s: the copy of x takes 100 ms; the Input leaves x on the host, so B waits for no copy
# out (offloading it after the Input took 195 ms more); the fetch waits for the free of y after
# B (12 ms), C for the fetch (112 ms): 113 ms against 13.
assert d["offloaded_bytes"] == 0 and d["extra_ms"] == 100 and not d["proven_optimal"], d
' "$TMP/off.json"
    py "500 B: replayed" "$CHECK" "$TMP/off.json" "$TRIO"
    run "$M" budget "$TRIO" --budget 500 --allow recompute,offload --solver greedy
    expect_rc 0 "500 B text"
    expect_grep "$OUT" "host     BufId 10" "text: the host event"
    expect_grep "$OUT" "peak 500 B (500 bytes)" "text: the peak"
    # A dropout made again from its generator state (tests/data/budget_dropout.json: without
    # the rerun no plan fits under 300000 B): the plan says so, the replay counts the state.
    DROP=$SRC/tests/data/budget_dropout.json
    run "$M" budget "$DROP" --budget 220000 --format json
    expect_rc 0 "dropout rerun"
    cp "$OUT" "$TMP/drop.json"
    py "dropout rerun: its state" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["rng_states"] == 1 and d["rng_state_bytes"] == 5072 and d["reruns"] == 1, d
assert d["events"].count(["run", 6]) == 2 and d["proven_optimal"], d["events"]
' "$TMP/drop.json"
    py "dropout rerun: replayed" "$CHECK" "$TMP/drop.json" "$DROP"
    run "$M" budget "$DROP" --budget 220000 -o "$TMP/dropplan.json"
    expect_rc 0 "dropout rerun text"
    expect_grep "$OUT" "1 random op rerun from its generator state, kept from the first run to \
the last rerun (5.0 KiB)" "text: the state kept"
    expect_grep "$TMP/dropplan.json" '"rng state of drop"' "plan graph: the state's ALLOC"
    run "$M" schedule "$TMP/dropplan.json" -p given --format json
    expect_rc 0 "plan graph of the dropout rerun replays"
    py "plan graph: the plan's peak" '
import json, sys
assert json.load(open(sys.argv[1]))["peak"] == json.load(open(sys.argv[2]))["peak"]
' "$OUT" "$TMP/drop.json"
    # Greedy, walking the given order, fits no plan in 500 B by recompute alone (x is an
    # Input's): it says it found none, and that a plan may exist, never "no plan fits" (the
    # bound, 500 B, does not prove it). One does: A and B before the Input (exact finds it).
    run "$M" budget "$TRIO" --budget 500 --solver greedy
    expect_rc 1 "500 B recompute only"
    expect_grep "$ERR" "greedy found no plan that fits in 500 B" "500 B: honest"
    if grep -q "no plan fits" "$ERR"; then bad "500 B: 'no plan fits' without a proof"; else ok; fi
}

group_infeasible() {
    # Below 500 B no plan fits (C needs x, w and z); at 500 B greedy finds one with offload.
    run "$M" budget "$TRIO" --budget 400 --allow recompute,offload
    expect_rc 1 "400 B"
    expect_grep "$ERR" "no plan fits in 400 B; the least budget any plan fits in is 500 B" \
        "400 B: the least budget"
    expect_empty "$OUT" "400 B: nothing on stdout"
    run "$M" budget "$TRIO" --budget 400 --allow recompute,offload --format json
    expect_rc 1 "400 B JSON"
    py "400 B: JSON" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["feasible"] is False and d["proven_infeasible"] is True, d
assert d["least_budget"] == 500 and d["least_budget_bound"] == 500, d
' "$OUT"
    # Recompute alone: 500 B is still the bound, but no plan is known there.
    run "$M" budget "$TRIO" --budget 400 --format json
    expect_rc 1 "400 B recompute only"
    expect_grep "$ERR" "every plan needs at least 500 B" "400 B recompute: the bound alone"
    py "400 B recompute: least_budget unknown" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["least_budget"] is None and d["least_budget_bound"] == 500, d
' "$OUT"
}

# -o PLAN.json: the plan as a graph that every command opens; policy given replays it at the
# plan's peak (and, on the trio with offload, at the plan's time); whole or absent.
group_output() {
    # best runs Input after B (repair's orders): 500 B with no copy and no extra time, proven.
    run "$M" budget "$TRIO" --budget 500 --allow recompute,offload --bandwidth 1000 --format json
    expect_rc 0 "the trio at 500 B by best"
    py "the trio at 500 B by best: reordered, no extra time" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["peak"] == 500 and d["extra_ms"] == 0 and d["proven_optimal"], d
assert d["events"][:4] == [["run", 3], ["run", 5], ["free", 20], ["run", 1]], d["events"]
' "$OUT"
    # greedy keeps the given order: an offload and a fetch, the plan graph's Stream 1 nodes.
    run "$M" budget "$TRIO" --budget 500 --allow recompute,offload --bandwidth 1000 \
        --solver greedy --format json -o "$TMP/plan.json"
    expect_rc 0 "-o: the trio at 500 B"
    cp "$OUT" "$TMP/b.json"
    run "$M" validate "$TMP/plan.json"
    expect_rc 0 "-o: the plan graph validates"
    run "$M" schedule "$TMP/plan.json" -p given --format json
    expect_rc 0 "-o: schedule -p given opens the plan graph"
    py "-o: given replays the plan: its peak and its time" '
import json, sys
b, s, g = (json.load(open(p)) for p in sys.argv[1:4])
assert s["peak"] == b["peak"] == 500, (s["peak"], b["peak"])
assert s["makespan"] == 13 + b["extra_ms"] == 113, (s["makespan"], b["extra_ms"])
ops = [n["Op"] for n in g["Nodes"]]
# x starts on the host: no Offload, its first ALLOC comes with its Fetch, read by C
assert ops.count("Offload") == 0 and ops.count("Fetch") == 1, ops
assert all(n.get("Stream") == 1 and n["Latency"] == 100 for n in g["Nodes"]
           if n["Op"] in ("Offload", "Fetch")), g["Nodes"]
assert [n["Inputs"] for n in g["Nodes"] if n["Op"] == "Fetch"] == [[10]], g["Nodes"]
assert [n.get("Inputs", []) for n in g["Nodes"] if n["Op"] == "Input"] == [[]], g["Nodes"]
assert [n["Id"] for n in g["Nodes"]] == list(range(len(g["Nodes"])))
' "$TMP/b.json" "$OUT" "$TMP/plan.json"
    # Reruns on the training samples and gen train (with latencies); the paths may hold spaces.
    # --max-states 2000: best's search stops there, not at the 10 s --time-limit (30 s of a
    # core for the three); the plan it writes is the same, byte for byte (2026-12-08).
    "$M" gen train -n 600 -o "$TMP/train.json"
    # (with Latency the transformer fits 92% by reordering alone: 90% needs reruns)
    for c in "$RESNET|80%|recompute" "$TRANSFORMER|90%|recompute" \
        "$TMP/train.json|60%|recompute"; do
        IFS='|' read -r f1 f2 f3 <<<"$c"
        set -- "$f1" "$f2" "$f3"
        run "$M" budget "$1" --budget "$2" --allow "$3" --max-states 2000 --format json -o "$TMP/p.json"
        expect_rc 0 "-o: $(basename "$1") at $2"
        cp "$OUT" "$TMP/b.json"
        run "$M" schedule "$TMP/p.json" -p given --format json
        expect_rc 0 "-o: $(basename "$1") at $2: schedule"
        py "-o: $(basename "$1") at $2: given's peak is the plan's, its reruns named" '
import json, sys
b, s, g = (json.load(open(p)) for p in sys.argv[1:4])
assert s["peak"] == b["peak"] <= b["budget"], (s["peak"], b["peak"], b["budget"])
reruns = [n for n in g["Nodes"] if n.get("Name", "").endswith(" (rerun)") and n["Op"] != "ALLOC"]
assert len(reruns) == b["reruns"] > 0, (len(reruns), b["reruns"])
' "$TMP/b.json" "$OUT" "$TMP/p.json"
        run "$M" validate "$TMP/p.json"
        expect_rc 0 "-o: $(basename "$1") at $2: validates"
    done
    # -o -: the graph alone on standard output.
    run "$M" budget "$TRIO" --budget 500 --allow recompute,offload -o -
    expect_rc 0 "-o -"
    cp "$OUT" "$TMP/dash.json"
    run "$M" validate - <"$TMP/dash.json"
    expect_rc 0 "-o -: standard output is the plan graph"
    # No plan: nothing written, an old file untouched.
    echo old >"$TMP/old.json"
    run "$M" budget "$TRIO" --budget 400 --allow recompute,offload -o "$TMP/none.json"
    expect_rc 1 "-o without a plan"
    if [ -e "$TMP/none.json" ]; then bad "-o without a plan wrote a file"; else ok; fi
    run "$M" budget "$TRIO" --budget 400 -o "$TMP/old.json"
    expect_rc 1 "-o without a plan over an old file"
    if [ "$(cat "$TMP/old.json")" = old ]; then ok; else bad "-o without a plan: the old file changed"; fi
    # An output that cannot be made: a clear message, status 1, before any work.
    run "$M" budget "$TRIO" --budget 500 -o "$TMP/no/such/dir/plan.json"
    expect_rc 1 "-o into a missing folder"
    expect_grep "$ERR" "memtris budget: cannot open '$TMP/no/such/dir/plan.json' for writing" \
        "-o into a missing folder: the message"
    expect_empty "$OUT" "-o into a missing folder: nothing on stdout"
    run "$M" budget "$TRIO" --budget 500 -o "$TMP"
    expect_rc 1 "-o onto a folder"
}

# --sweep: budgets from the bound to the budget-free peak, the extra time never rising as the
# budget grows, Chen's sqrt(n) and the claim beside; JSON, text and an SVG that parses.
group_sweep() {
    usage_error "--sweep with --budget" "$M" budget "$TRIO" --sweep --budget 500
    usage_error "--sweep with -o" "$M" budget "$TRIO" --sweep -o "$TMP/x.json"
    usage_error "--points without --sweep" "$M" budget "$TRIO" --budget 500 --points 4
    usage_error "--svg without --sweep" "$M" budget "$TRIO" --budget 500 --svg "$TMP/x.svg"
    for p in 0 1 1001 -3 4x "" " 5"; do
        usage_error "--points '$p'" "$M" budget "$TRIO" --sweep --points "$p"
    done
    MONO='
import json, sys
d = json.load(open(sys.argv[1]))
pts, n = d["points"], int(sys.argv[2])
assert set(d) >= {"budget_free_peak", "step_ms", "solver", "points", "chen_sqrt_n", "seed_claim"}
assert 2 <= len(pts) <= n and pts[0]["budget"] == d["least_budget_bound"], pts[0]
assert pts[-1]["budget"] == d["budget_free_peak"] and pts[-1]["feasible"], pts[-1]
assert pts[-1]["extra_ms"] == 0 and pts[-1]["peak"] == d["budget_free_peak"], pts[-1]
best = None
for a, b in zip(pts, pts[1:]):
    assert a["budget"] < b["budget"], (a, b)
    assert not a["feasible"] or b["feasible"], (a, b)
    if a["feasible"]:
        assert b["extra_ms"] <= a["extra_ms"], ("the extra time rose", a, b)
for p in pts:
    assert set(p) >= {"budget", "feasible", "peak", "extra_ms", "reruns", "offloaded_bytes"}, p
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
    run "$M" budget "$TRIO" --sweep --points 5 --allow recompute,offload --format json
    expect_rc 0 "sweep: the trio"
    py "sweep: the trio, monotone, from 500 B to 600 B" "$MONO" "$OUT" 5
    py "sweep: the trio has no Phases: no Chen" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["chen_sqrt_n"] is None and d["step_ms"] == 13, d
assert [p["budget"] for p in d["points"]] == [500, 525, 550, 575, 600], d["points"]
' "$OUT"
    # the gap column: generated training at 60% and less takes extra time with a bound above 0
    "$M" gen train -n 200 --seed 1 -o "$TMP/t200s.json"
    run "$M" budget "$TMP/t200s.json" --sweep --points 8 --format json
    py "sweep: train 200, a gap where it takes time" '
import json, sys
d = json.load(open(sys.argv[1]))
costly = [p for p in d["points"] if p["feasible"] and p["extra_ms"] > 0]
assert costly and all(p["lower_bound_ms"] > 0 for p in costly), d["points"]
' "$OUT"
    run "$M" budget "$TMP/t200s.json" --sweep --points 8
    expect_grep "$OUT" "offloaded   gap" "sweep text: the gap column"
    expect_grep "$OUT" " optimal" "sweep text: a point proven"
    "$M" gen train -n 600 -o "$TMP/train.json"
    for c in "$RESNET|recompute" "$TMP/train.json|recompute,offload"; do
        IFS='|' read -r f1 f2 <<<"$c"
        set -- "$f1" "$f2"
        run "$M" budget "$1" --sweep --allow "$2" --format json --svg "$TMP/s.svg"
        expect_rc 0 "sweep: $(basename "$1")"
        cp "$OUT" "$TMP/sweep.json"
        py "sweep: $(basename "$1"): monotone" "$MONO" "$TMP/sweep.json" 16
        py "sweep: $(basename "$1"): Chen beside" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["chen_sqrt_n"]["peak"] > 0 and d["chen_sqrt_n"]["reruns"] > 0, d["chen_sqrt_n"]
' "$TMP/sweep.json"
        py "sweep: $(basename "$1"): the SVG is XML with the curve and both marks" '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
texts = " ".join("".join(t.itertext()) for t in root.iter(ns + "text"))
assert "Chen" in texts and "65% less memory" in texts and "15% more time" in texts, texts
curve = [p for p in root.iter(ns + "polyline") if p.get("class") == "curve"]
assert len(curve) == 1 and len(curve[0].get("points").split()) >= 2, curve
assert any(e.get("class") == "chen" for e in root.iter()), "no Chen mark"
assert any(e.get("class") == "claim" for e in root.iter()), "no claim mark"
' "$TMP/s.svg"
    done
    # A point of the sweep is what the solver finds at its budget alone.
    py "sweep: a point is the plan of --budget" '
import json, subprocess, sys
d = json.load(open(sys.argv[1]))
p = [p for p in d["points"] if p["solver_found"] and p["plan_budget"] == p["budget"]][0]
one = json.loads(subprocess.run([sys.argv[2], "budget", sys.argv[3], "--budget", str(p["budget"]),
                 "--allow", "recompute,offload", "--solver", d["solver"], "--format", "json"],
                 capture_output=True).stdout)
assert one["peak"] == p["peak"] and one["extra_ms"] == p["extra_ms"], (one, p)
' "$TMP/sweep.json" "$M" "$TMP/train.json"
    run "$M" budget "$RESNET" --sweep --points 4
    expect_rc 0 "sweep: text"
    expect_grep "$OUT" "budget-free peak 123.8 MiB" "sweep text: the budget-free peak"
    expect_grep "$OUT" "Chen's sqrt(n) checkpointing: peak" "sweep text: Chen"
    expect_grep "$OUT" "65% less memory for 15% more time" "sweep text: the claim"
    expect_grep "$OUT" "no plan found" "sweep text: a budget without a plan"
    run "$M" budget "$RESNET" --sweep --points 4 --svg -
    expect_rc 0 "sweep --svg -"
    py "sweep --svg -: the SVG alone" '
import sys, xml.etree.ElementTree as ET
ET.parse(sys.argv[1])
' "$OUT"
    run "$M" budget "$RESNET" --sweep --svg "$TMP/no/such/s.svg"
    expect_rc 1 "sweep --svg into a missing folder"
    expect_grep "$ERR" "cannot open" "sweep --svg into a missing folder: the message"
}

group_samples() {
    for f in "$RESNET" "$TRANSFORMER"; do
        for p in 60% 50%; do
            for a in recompute recompute,offload; do
                run "$M" budget "$f" --budget "$p" --allow "$a" --format json --solver greedy
                if [ "$rc" -eq 0 ]; then
                    cp "$OUT" "$TMP/s.json"
                    py "$(basename "$f") $p $a replayed" "$CHECK" "$TMP/s.json" "$f"
                elif [ "$rc" -eq 1 ]; then
                    # no plan: "no plan fits" only when the bound proves it, with what
                    # fills the least budget; else greedy says it found none
                    if grep -q '"proven_infeasible": true' "$OUT"; then
                        expect_grep "$ERR" "every plan needs at least" \
                            "$(basename "$f") $p $a: proven"
                        expect_grep "$ERR" "what fills" "$(basename "$f") $p $a: what fills it"
                    else
                        expect_grep "$ERR" "greedy found no plan" \
                            "$(basename "$f") $p $a: honest"
                    fi
                else bad "$(basename "$f") $p $a: status $rc"; fi
            done
        done
    done
    run "$M" budget "$RESNET" --budget 80% --solver greedy
    expect_rc 0 "resnet18 at 80% by recompute"
    # The baselines beside: both in the text, both in the JSON (the transformer recomputes
    # its cheap ops: gelu, views, adds)
    run "$M" budget "$TRANSFORMER" --budget 92% --solver greedy
    expect_grep "$OUT" "beside: Chen's sqrt(n) checkpointing peaks at " "transformer: Chen beside"
    expect_grep "$OUT" "beside: recomputing every cheap op peaks at " \
        "transformer: recompute every cheap op beside"
    run "$M" budget "$TRANSFORMER" --budget 92% --solver greedy --format json
    cp "$OUT" "$TMP/base.json"
    py "transformer: the baselines in the JSON" '
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("chen_sqrt_n", "cheap_recompute"):
    assert d[k]["peak"] > 0 and d[k]["reruns"] > 0 and d[k]["extra_ms"] > 0, d[k]
' "$TMP/base.json"
    # best at its state limit: at least greedy's plan, replayed
    run "$M" budget "$RESNET" --budget 80% --max-states 2000 --format json
    expect_rc 0 "resnet18 at 80% best"
    cp "$OUT" "$TMP/best.json"
    py "resnet18 at 80% best: replayed" "$CHECK" "$TMP/best.json" "$RESNET"
    run "$M" budget "$RESNET" --budget 50% --allow recompute,offload --solver greedy
    expect_rc 0 "resnet18 at 50% with offload"
}

group_chain() {
    local C=$SRC/tests/data/chain-train.json
    for p in 90% 75%; do
        run "$M" budget "$C" --budget "$p" --solver chain --format json
        expect_rc 0 "chain at $p"
        cp "$OUT" "$TMP/c.json"
        py "chain at $p: replayed" "$CHECK" "$TMP/c.json" "$C"
        py "chain at $p: the solver, reruns, not proven" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["solver"] == "chain" and d["reruns"] > 0 and d["extra_ms"] > 0, d
assert d["proven_optimal"] is False, d
' "$TMP/c.json"
    done
    # At 75% (the last above): 3 ms, below greedy's 4 ms (the Linear segments, with no backward
    # of their own, are never run again).
    py "chain at 75%: 3 ms" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["extra_ms"] == 3 and d["reruns"] == 4, d
' "$TMP/c.json"
    run "$M" budget "$C" --budget 75% --solver chain
    expect_rc 0 "chain text"
    expect_grep "$OUT" "solver chain" "chain text: the solver"
    expect_grep "$OUT" "chain: a chain of 17 segments, memory in slots of" "chain text: the segments"
    # Not chains: the why, status 1, and never "no plan fits" without a proof.
    run "$M" budget "$TRIO" --budget 500 --solver chain
    expect_rc 1 "chain on a graph without Phases"
    expect_grep "$ERR" "chain found no plan that fits in 500 B (not a chain of segments: no compute \
node has Phase forward)" "chain: not a chain, why"
    run "$M" budget "$TRANSFORMER" --budget 60% --solver chain --format json
    expect_rc 1 "chain on the transformer"
    expect_grep "$ERR" "not a chain of segments: node Id 93 (bernoulli_) of the forward is a random op" \
        "chain: the transformer's dropout named"
    py "chain JSON without a plan" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["feasible"] is False and d["solver"] == "chain", d
assert d["why"].startswith("not a chain of segments: "), d
' "$OUT"
    run "$M" budget "$C" --budget 75% --solver chain --allow offload
    expect_rc 1 "chain with offload alone"
    expect_grep "$ERR" "chain only recomputes" "chain: offload alone"
}

# A chain with latencies: A (5 ms) makes a (100 B); B reads a, makes b (200 B); C reads b, makes
# c (50 B); D reads a and c, makes d (50 B, kept). The given order peaks at 350 B (a, b and c
# at C); in 300 B a must leave before C and A run again for D: 5 ms, the least.
CHAIN=$TMP/chain.json
cat >"$CHAIN" <<'EOF'
{"Nodes": [
  {"Id": 0, "Op": "ALLOC", "Size": 100, "BufId": 1},
  {"Id": 1, "Op": "A", "Latency": 5, "Inputs": [1]},
  {"Id": 2, "Op": "ALLOC", "Size": 200, "BufId": 2},
  {"Id": 3, "Op": "B", "Latency": 1, "Inputs": [1, 2]},
  {"Id": 4, "Op": "ALLOC", "Size": 50, "BufId": 3},
  {"Id": 5, "Op": "C", "Latency": 1, "Inputs": [2, 3]},
  {"Id": 6, "Op": "FREE", "BufId": 2},
  {"Id": 7, "Op": "ALLOC", "Size": 50, "BufId": 4},
  {"Id": 8, "Op": "D", "Latency": 1, "Inputs": [1, 3, 4]},
  {"Id": 9, "Op": "FREE", "BufId": 1},
  {"Id": 10, "Op": "FREE", "BufId": 3}
],
"Edges": [[0, 1], [1, 3], [2, 3], [3, 5], [4, 5], [5, 6], [1, 8], [5, 8], [7, 8], [8, 9],
          [8, 10]]}
EOF

group_exact() {
    # exact and best prove the least extra time (5 ms); the plan is replayed.
    for s in exact best; do
        run "$M" budget "$CHAIN" --budget 300 --solver "$s" --format json
        expect_rc 0 "chain 300 B $s"
        cp "$OUT" "$TMP/$s.json"
        py "chain 300 B $s: proven" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["solver"] == sys.argv[2] and d["proven_optimal"] is True, d
assert d["extra_ms"] == d["lower_bound_ms"] == 5 and d["reruns"] == 1, d
' "$TMP/$s.json" "$s"
        py "chain 300 B $s: replayed" "$CHECK" "$TMP/$s.json" "$CHAIN"
        run "$M" budget "$CHAIN" --budget 300 --solver "$s"
        expect_grep "$OUT" "extra time 5.00 ms: proven optimal" "chain 300 B $s: text"
    done
    # greedy's plan is proven by the bound for any order (budget_bound.c): at D, a (100 B),
    # c and d are needed and b (200 B) was made before and is read after: 100 B of it must go,
    # so A runs again (5 ms)
    run "$M" budget "$CHAIN" --budget 300 --solver greedy --format json
    py "chain 300 B greedy: proven by the bound" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["extra_ms"] == 5 and d["proven_optimal"] is True and d["lower_bound_ms"] == 5, d
assert d["gap"] == 0, d
' "$OUT"
    # a tiny --max-states: greedy's plan and a gap, never a claim of proof
    run "$M" gen train --nodes 200 --seed 1 -o "$TMP/t200.json"
    run "$M" budget "$TMP/t200.json" --budget 60% --solver exact --max-states 1 --format json
    expect_rc 0 "train 200 at 60% --max-states 1"
    cp "$OUT" "$TMP/gap.json"
    py "train 200 at 60% --max-states 1: a gap" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["proven_optimal"] is False and 0 <= d["lower_bound_ms"] < d["extra_ms"], d
' "$TMP/gap.json"
    py "train 200 at 60% --max-states 1: replayed" "$CHECK" "$TMP/gap.json" "$TMP/t200.json"
    py "train 200 at 60% --max-states 1: the gap said" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["lower_bound_ms"] > 0, d
assert abs(d["gap"] - (d["extra_ms"] - d["lower_bound_ms"]) / d["lower_bound_ms"]) < 1e-4, d
' "$TMP/gap.json"
    run "$M" budget "$TMP/t200.json" --budget 60% --solver exact --max-states 1
    expect_grep "$OUT" "% of optimal (lower bound 0.0" "text: the gap"
    expect_grep "$OUT" "), exact stopped at the limit of states" "text: why exact stopped"
    # greedy claims no proof it does not have: above the bound, a gap
    run "$M" budget "$TMP/t200.json" --budget 60% --solver greedy --format json
    py "train 200 at 60% greedy: no claim" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["proven_optimal"] is False and 0 < d["lower_bound_ms"] < d["extra_ms"], d
assert d["gap"] > 0, d
' "$OUT"
    # Infeasibility proven by the bound: when A cannot run again, a (100 B) must stay across
    # C, which needs b and c (250 B): nothing fits under 350 B, and what fills it is said.
    sed 's/"Op": "A",/"Op": "A", "Rerun": false,/' "$CHAIN" >"$TMP/once.json"
    for s in exact best greedy; do
        run "$M" budget "$TMP/once.json" --budget 300 --solver "$s" --format json
        expect_rc 1 "A once, 300 B $s"
        expect_grep "$ERR" "no plan fits in 300 B; the least budget any plan fits in is 350 B" \
            "A once, 300 B $s: proven"
        expect_grep "$ERR" "what fills 350 B: other 350 B (100%) at Id 5 (C)" \
            "A once, 300 B $s: what fills it"
        py "A once, 300 B $s: JSON" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["feasible"] is False and d["proven_infeasible"] is True, d
assert d["least_budget_bound"] == 350 and d["least_budget"] == 350, d
assert d["least_budget_fill"] == {"at": 5, "bytes": {"other": 350}}, d
' "$OUT"
    done
    # Infeasibility proven by the search (the bound, 1000 B, does not see it): X runs after
    # the Input and before its buffer is freed, beside it or beside Y's output, both kept.
    cat >"$TMP/unseen.json" <<'EOF'
{"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 500, "BufId": 0},
{"Id": 1, "Op": "Input", "Latency": 4, "Inputs": [0]},
{"Id": 2, "Op": "ALLOC", "Size": 300, "BufId": 1},
{"Id": 3, "Op": "X", "Latency": 4, "Inputs": [0, 1]},
{"Id": 4, "Op": "ALLOC", "Size": 500, "BufId": 2},
{"Id": 5, "Op": "Y", "Latency": 5, "Inputs": [0, 2]},
{"Id": 6, "Op": "FREE", "BufId": 0}], "Edges": [[0, 1], [1, 3], [2, 3], [1, 5], [4, 5], [5, 6]]}
EOF
    for s in exact best; do
        run "$M" budget "$TMP/unseen.json" --budget 1000 --solver "$s" --format json
        expect_rc 1 "unseen, 1000 B $s"
        expect_grep "$ERR" "no plan fits in 1000 B (exact proves it" "unseen, 1000 B $s: proven"
        py "unseen, 1000 B $s: JSON" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["feasible"] is False and d["proven_infeasible"] is True, d
assert d["least_budget_bound"] == 1000, d
' "$OUT"
    done
    # with offload exact finds a plan there (a to the host and back), its bound the reruns'
    # time (0 ms), below the copies' 200 ms: a gap, no proof
    run "$M" budget "$TMP/once.json" --budget 300 --allow recompute,offload --bandwidth 1000 \
        --solver exact --format json
    expect_rc 0 "A once, 300 B exact with offload"
    cp "$OUT" "$TMP/xoff.json"
    py "A once, 300 B exact with offload: replayed" "$CHECK" "$TMP/xoff.json" "$TMP/once.json"
    py "A once, 300 B exact with offload: its bound" '
import json, sys
d = json.load(open(sys.argv[1]))
assert ["offload", 1] in d["events"] and ["fetch", 1] in d["events"], d
assert d["lower_bound_ms"] == 0 and d["extra_ms"] > 0 and not d["proven_optimal"], d
' "$TMP/xoff.json"
}

run_groups
