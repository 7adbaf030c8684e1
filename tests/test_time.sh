#!/usr/bin/env bash
# test_time.sh: end-to-end checks of time in memtris: schedule's makespan and
# per-step times on samples/prefetch.json (worked by hand in its README
# row), the weighted and multiqueue policies' options and their usage
# errors, compare's makespans, and compare --pareto (its marks against a
# brute-force dominance check, its JSON, CSV and SVG, its usage errors).
# Usage: test_time.sh MEMTRIS SOURCE_DIR [GROUP]   (GROUP: schedule, options,
# pareto, pareto_front, no_latency; all of them when omitted). Prints "N passed, M failed" last.
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 MEMTRIS SOURCE_DIR [GROUP]" >&2
    exit 2
fi
M=$1
SRC=$2
GROUP=${3:-all}
PRE=$SRC/samples/prefetch.json
. "$(dirname "$0")/clilib.sh" time

# usage_error CMD DESC WANT_IN_STDERR ARGS...: status 2, the message, no stdout.
usage_error() {
    local cmd=$1 desc=$2 want=$3
    shift 3
    run "$M" "$cmd" "$@"
    expect_rc 2 "$desc"
    expect_empty "$OUT" "$desc (stdout)"
    expect_grep "$ERR" "$want" "$desc (message)"
    expect_grep "$ERR" "Try 'memtris $cmd --help'" "$desc (hint)"
}

# py DESC SCRIPT: runs python3 on $OUT with the script; ok when it exits 0.
py() {
    local desc=$1
    if python3 -c "$2" "$OUT" 2>"$TMP/py.err"; then ok
    else bad "$desc: $(cat "$TMP/py.err")"; fi
}

# ------------------------------------------------------------------ groups

group_schedule() {
    # fifo: every weight allocated at once, copies (stream 1) run ahead of
    # the layers (stream 0): layer i runs [2 + 3i, 5 + 3i), makespan 14.
    run "$M" schedule -p fifo -f json "$PRE"
    expect_rc 0 "schedule fifo json"
    py "fifo's timeline on prefetch" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["makespan"] == 14 and d["critical_path"] == 14 and d["makespan_bound"] == 14, d
assert d["stream_busy"] == [12, 8], d["stream_busy"]
assert d["peak"] == 37 * 2**20, d["peak"]
ids = {i: s for s, i in enumerate(d["order"])}
layer = {5: 0, 11: 1, 17: 2, 23: 3}   # the Ids of layer0..layer3
for node, i in layer.items():
    s = ids[node]
    assert d["stream"][s] == 0 and d["start"][s] == 2 + 3 * i, (node, d["start"][s])
copies = [s for s in range(len(d["order"])) if d["stream"][s] == 1]
assert [d["start"][s] for s in copies] == [0, 2, 4, 6], [d["start"][s] for s in copies]
assert all(d["stream"][s] == -1 for s in range(len(d["order"])) if d["stream"][s] < 0)
'
    # priority: each weight allocated when nothing else is ready, so copy i
    # waits for layer i-1: copy [5i, 5i+2), layer [5i+2, 5i+5), makespan 20.
    run "$M" schedule -f json "$PRE"
    py "priority's timeline on prefetch" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["makespan"] == 20 and d["makespan_bound"] == 14 and d["peak"] == 16 * 2**20, d
st = [d["start"][s] for s in range(len(d["order"])) if d["stream"][s] >= 0]
assert st == [0, 0, 2, 5, 7, 10, 12, 15, 17, 20], st   # Input, then copy/layer pairs, Output
'
    run "$M" schedule "$PRE"
    expect_grep "$OUT" "makespan 20.0 ms on 2 streams (busy: 0 12.0 ms, 1 8.00 ms); no order finishes before 14.0 ms (critical path 14.0 ms)" "schedule text: the makespan line"
    run "$M" schedule -f csv -p fifo "$PRE"
    expect_grep "$OUT" "step,id,op,name,change,memory,start_ms,finish_ms,stream" "csv header"
    expect_grep "$OUT" ",Conv2d,layer1,0," "csv: layer1 on a row"
    if grep ',layer1,' "$OUT" | grep -q ',5,8,0$'; then ok; else bad "csv: layer1 runs 5 to 8 on stream 0"; fi
    # Without latencies every makespan is 0, and the text says why.
    run "$M" schedule "$SRC/samples/demo.json"
    expect_grep "$OUT" "makespan 0 ms: no node has a Latency" "no latency"
    # compare: each policy's makespan.
    run "$M" compare -f json --policies fifo,priority,multiqueue "$PRE"
    py "compare's makespans" '
import json, sys
d = json.load(open(sys.argv[1]))
assert [(r["policy"], r["makespan"]) for r in d["results"]] == [("fifo", 14), ("priority", 20), ("multiqueue", 14)], d
'
}

group_options() {
    # alpha 1 is priority's order, alpha 0 the seed's latency term alone.
    run "$M" schedule -f json -p priority "$SRC/samples/bert_base.json"
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["order"])' "$OUT" >"$TMP/prio"
    run "$M" schedule -f json -p weighted --alpha 1 "$SRC/samples/bert_base.json"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["alpha"] == 1; print(d["order"])' "$OUT" >"$TMP/w1"
    expect_same "$TMP/prio" "$TMP/w1" "weighted --alpha 1 is priority's order"
    run "$M" schedule -f json -p weighted "$PRE"
    py "weighted's default alpha" 'import json,sys; assert json.load(open(sys.argv[1]))["alpha"] == 0.7'
    # alpha 0: memory plays no part, not even in ties (the first ready wins):
    # every ALLOC scores 0 and they go in fifo's order, each weight's copy
    # (the fastest node: latency 1) as soon as it is ready.
    run "$M" schedule -f json -p weighted --alpha 0 "$PRE"
    py "weighted at alpha 0 on prefetch" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["alpha"] == 0 and d["makespan"] == 14 and d["peak"] == 37 * 2**20, d
assert d["order"][:9] == [0, 2, 3, 8, 9, 14, 15, 20, 21], d["order"]
'
    # multiqueue: each round serves the queues in the --queue-order, and a
    # node made ready joins its queue at once: "cp" (stream 1: transfer),
    # made ready by "mm", is served in the same round when transfer comes
    # after compute, in the next when before.
    printf '%s' '{"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 8, "BufId": 1}, {"Id": 1, "Op": "mm"},
      {"Id": 2, "Op": "cp", "Stream": 1}, {"Id": 3, "Op": "FREE", "BufId": 1}], "Edges": [[0, 3], [1, 2]]}' >"$TMP/q.json"
    for q in "compute,transfer,other 1,2,0,3" "other,transfer,compute 0,1,3,2" "transfer,compute,other 1,0,2,3" "other,compute,transfer 0,1,2,3"; do
        run "$M" schedule -f csv -p multiqueue --queue-order ${q% *} "$TMP/q.json"
        expect_rc 0 "--queue-order ${q% *}"
        got=$(tail -n +2 "$OUT" | cut -d, -f2 | tr '\n' ',')
        if [ "$got" = "${q#* }," ]; then ok; else bad "--queue-order ${q% *}: order $got, expected ${q#* }"; fi
    done
    for cmd in schedule compare plan replay iterate view; do
        usage_error $cmd "$cmd --alpha 1.5" "--alpha wants a number from 0 to 1, not '1.5'" "$PRE" --alpha 1.5
    done
    usage_error schedule "--alpha -0.1" "not '-0.1'" "$PRE" --alpha -0.1
    usage_error schedule "--alpha nan" "not 'nan'" "$PRE" --alpha nan
    usage_error schedule "--alpha x" "not 'x'" "$PRE" --alpha x
    usage_error schedule "--alpha ''" "not ''" "$PRE" --alpha ''
    usage_error schedule "--queue-order twice" "--queue-order wants compute, transfer and other, each once, comma-separated, not 'compute,compute,other'" "$PRE" --queue-order compute,compute,other
    usage_error schedule "--queue-order short" "not 'compute,other'" "$PRE" --queue-order compute,other
    usage_error schedule "--queue-order long" "not 'compute,transfer,other,compute'" "$PRE" --queue-order compute,transfer,other,compute
    usage_error schedule "--queue-order unknown" "not 'compute,copy,other'" "$PRE" --queue-order compute,copy,other
    usage_error schedule "--queue-order trailing comma" "not 'compute,transfer,other,'" "$PRE" --queue-order compute,transfer,other,
    # Bad Latency and Stream: status 1, the node named.
    printf '{"Nodes": [{"Id": 0, "Op": "in"}, {"Id": 7, "Op": "mm", "Stream": 64}], "Edges": [[0, 7]]}' >"$TMP/s64.json"
    run "$M" schedule "$TMP/s64.json"
    expect_rc 1 "Stream 64"
    expect_grep "$ERR" "Nodes[1] (Id 7): \"Stream\" must be 0..63, found 64" "Stream 64 named"
    # The largest Latency (1e9 ms) on a chain: finite, valid JSON, whole units.
    printf '{"Nodes": [{"Id": 0, "Op": "a", "Latency": 1e9}, {"Id": 1, "Op": "b", "Latency": 1e9, "Stream": 63}], "Edges": [[0, 1]]}' >"$TMP/big.json"
    run "$M" schedule -f json "$TMP/big.json"
    py "1e9 ms latencies: valid JSON" 'import json,sys; d=json.load(open(sys.argv[1])); assert d["makespan"] == 2e9 and d["stream_busy"][63] == 1e9, d'
    run "$M" schedule "$TMP/big.json"
    expect_grep "$OUT" "makespan 556 h on 2 streams (busy: 0 278 h, 63 278 h)" "1e9 ms latencies: hours, the streams that run"
    printf '{"Nodes": [{"Id": 3, "Op": "in", "Latency": 1e400}], "Edges": []}' >"$TMP/inf.json"
    run "$M" schedule "$TMP/inf.json"
    expect_rc 1 "Latency 1e400"
    expect_grep "$ERR" "Nodes[0] (Id 3): \"Latency\" must be a non-negative number of ms up to 1e9, found a larger number" "Latency 1e400 named"
    printf '{"Nodes": [{"Id": 0, "Op": "in", "Latency": -2}], "Edges": []}' >"$TMP/neg.json"
    run "$M" schedule "$TMP/neg.json"
    expect_rc 1 "Latency -2"
    expect_grep "$ERR" "Nodes[0] (Id 0): \"Latency\" must be a non-negative number of ms up to 1e9, found a negative number" "Latency -2 named"
}

# The policies the scheduler has, in its table's order, from the usage
# error for an unknown one.
policies() {
    "$M" schedule --policy no-such-policy "$PRE" 2>&1 >/dev/null |
        sed -n 's/.*unknown policy .* (known: \(.*\))$/\1/p' | tr -d ','
}

group_pareto() {
    POLICIES=$(policies)
    export POLICIES
    run "$M" compare --pareto -f json "$PRE"
    expect_rc 0 "compare --pareto json"
    # The marks against brute force: a point is on the front when no other
    # has both values at most its own with one strictly smaller.
    py "pareto json and its marks" '
import json, os, sys
d = json.load(open(sys.argv[1]))
assert list(d) == ["graph", "critical_path", "makespan_bound", "points"], list(d)
pts = d["points"]
names = [(p["policy"], p["alpha"]) for p in pts]
# every policy of the table but exact and given, weighted at each alpha
want = []
for n in os.environ["POLICIES"].split():
    if n == "weighted": want += [("weighted", a / 10) for a in range(11)]
    elif n not in ("exact", "given"): want.append((n, None))
assert len(want) >= 19 and names == want, (names, want)
for p in pts:
    assert list(p) == ["policy", "alpha", "peak", "makespan", "pareto"], p
    dom = any(q["peak"] <= p["peak"] and q["makespan"] <= p["makespan"] and
              (q["peak"] < p["peak"] or q["makespan"] < p["makespan"]) for q in pts)
    assert p["pareto"] == (not dom), p
fifo, prio = pts[0], pts[1]
assert (fifo["peak"], fifo["makespan"]) == (37 * 2**20, 14) and fifo["pareto"]
assert (prio["peak"], prio["makespan"]) == (16 * 2**20, 20) and prio["pareto"]
'
    # On random graphs with random latencies and two streams, through every
    # policy the front runs: the same brute-force check, and each point is
    # what schedule says of that policy (one python for all three graphs).
    for seed in 1 2 3; do "$M" gen random --nodes 300 --seed $seed -o "$TMP/r$seed.json"; done
    python3 -c '
import json, random, sys
for seed in (1, 2, 3):
    path = sys.argv[1] + "/r%d.json" % seed
    g = json.load(open(path)); rnd = random.Random(seed)
    for n in g["Nodes"]:
        if n["Op"] not in ("ALLOC", "FREE"):
            n["Latency"] = rnd.choice([0.5, 1, 2, 4]); n["Stream"] = rnd.randrange(2)
    json.dump(g, open(path, "w"))' "$TMP"
    for seed in 1 2 3; do
        "$M" compare --pareto -f json "$TMP/r$seed.json" >"$TMP/p$seed.json"
        for pol in fifo priority dfs postorder lpmf bfs multiqueue best "weighted --alpha 0.3"; do
            "$M" schedule -f json -p $pol "$TMP/r$seed.json" >"$TMP/s$seed-${pol%% *}.json"
        done
    done
    OUT=$TMP/p1.json
    py "pareto marks on random graphs, each point schedule's own" '
import json, os, sys
d = os.path.dirname(sys.argv[1])
for seed in (1, 2, 3):
    pts = json.load(open(d + "/p%d.json" % seed))["points"]
    for p in pts:
        dom = any(q["peak"] <= p["peak"] and q["makespan"] <= p["makespan"] and
                  (q["peak"] < p["peak"] or q["makespan"] < p["makespan"]) for q in pts)
        assert p["pareto"] == (not dom), (seed, p)
    assert any(p["pareto"] for p in pts)
    for p in pts:
        if p["alpha"] not in (None, 0.3):
            continue
        s = json.load(open(d + "/s%d-%s.json" % (seed, p["policy"])))
        assert (s["peak"], s["makespan"]) == (p["peak"], p["makespan"]), (seed, p, s["makespan"])
'
    run "$M" compare --pareto "$PRE"
    expect_grep "$OUT" "prefetch.json: 28 nodes; no order finishes before 14.0 ms (critical path 14.0 ms)" "pareto text: the bound"
    expect_grep "$OUT" "fifo            -      37.0 MiB       14.0 ms  *" "pareto text: fifo on the front"
    run "$M" compare --pareto -f csv "$PRE"
    expect_grep "$OUT" "policy,alpha,peak,makespan_ms,pareto" "pareto csv header"
    expect_grep "$OUT" "weighted,0.5,16777216,20,true" "pareto csv row"
    # --svg: well-formed, a mark a point in its policy's colour and shape,
    # the front filled and joined, points at one place as rings of growing
    # radius, and a legend line a point naming it, no two lines meeting.
    run "$M" compare --pareto --svg "$TMP/p.svg" "$PRE"
    expect_rc 0 "compare --pareto --svg"
    if python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
marks = [e for e in root.iter() if e.find(ns + "title") is not None]
titles = [e.find(ns + "title").text for e in marks]
assert len(titles) == 19, titles
assert "fifo: 37.0 MiB, 14.0 ms (on the front)" in titles, titles
assert "bfs: 37.0 MiB, 14.0 ms (on the front)" in titles, titles
style = {}  # policy -> (colour, shape)
for e, t in zip(marks, titles):
    name = t.split(":")[0].split(" ")[0]
    st = (e.get("stroke"), e.tag)
    assert style.setdefault(name, st) == st, (name, st, style[name])
    assert e.get("fill") == (e.get("stroke") if t.endswith("(on the front)") else "none"), (t, e.attrib)
assert len(style) == 9 and len(set(style.values())) == 9, style
assert len({c for c, _ in style.values()}) == 9, style
# fifo and bfs at one place (37 MiB, 14 ms): two rings, bfs outside
r = {t.split(":")[0]: e for e, t in zip(marks, titles)}
def size(e):
    return float(e.get("r") or e.get("width") or 0) if e.tag != ns + "polygon" else \
        max(float(v.split(",")[0]) for v in e.get("points").split()) - min(float(v.split(",")[0]) for v in e.get("points").split())
assert size(r["bfs"]) > size(r["fifo"]), (r["bfs"].attrib, r["fifo"].attrib)
front = [e for e in root.iter(ns + "polyline") if e.get("class") == "front"]
assert len(front) == 1, front
legend = [e for e in root.iter(ns + "text") if e.get("class") == "legend"]
words = ["".join(e.itertext()) for e in legend]
assert len(words) == 19 and words[0] == "fifo: 37.0 MiB, 14.0 ms" and words[7] == "weighted 0.0: 37.0 MiB, 14.0 ms", words
ys = [float(e.get("y")) for e in legend]
assert all(b - a >= 14 for a, b in zip(ys, ys[1:])), ys
assert max(ys) < float(root.get("height")), (ys, root.get("height"))
assert all(float(e.get("x")) > 96 + 720 for e in legend)
' "$TMP/p.svg"; then ok; else bad "pareto svg"; fi
    run "$M" compare --pareto --svg - "$PRE"
    expect_rc 0 "--svg -"
    if head -c 4 "$OUT" | grep -q '<svg'; then ok; else bad "--svg - writes the picture alone"; fi
    usage_error compare "--pareto with --policies" "--pareto runs its own policies: it takes no --policies" "$PRE" --pareto --policies fifo
    usage_error compare "--pareto with --placers" "it takes no --placers" "$PRE" --pareto --placers best
    usage_error compare "--pareto with --alpha" "it takes no --alpha" "$PRE" --pareto --alpha 0.5
    usage_error compare "--pareto with --time-limit" "it takes no --time-limit" "$PRE" --pareto --time-limit 1
    usage_error compare "--svg without --pareto" "--svg draws --pareto's points only" "$PRE" --svg "$TMP/x.svg"
    run "$M" compare --pareto --svg "$TMP/no/such/dir.svg" "$PRE"
    expect_rc 1 "--svg into a missing folder"
    expect_grep "$ERR" "cannot open" "--svg into a missing folder: the message"
}

# compare --pareto's front over every policy: on generated graphs where a
# policy it once left out dominates a point that was marked (dfs and
# postorder beat priority's makespan at its peak on a branch graph on two
# streams; bfs beats fifo's peak at its makespan on a random one), and on
# one stream, where every order's makespan is the same sum taken in another
# order (the marks follow the values written, not their last bits).
group_pareto_front() {
    "$M" gen branch --nodes 60 --seed 3 --streams 2 -o "$TMP/b.json"
    "$M" gen random --nodes 40 --seed 3 --streams 2 -o "$TMP/r2.json"
    "$M" gen random --nodes 40 --seed 3 -o "$TMP/r1.json"
    for g in b r2 r1; do
        "$M" compare --pareto -f json "$TMP/$g.json" >"$TMP/p-$g.json"
        for pol in fifo priority dfs postorder lpmf bfs; do
            "$M" schedule -f json -p $pol "$TMP/$g.json" >"$TMP/s-$g-$pol.json"
        done
    done
    OUT=$TMP/p-b.json
    py "pareto front over every policy" '
import json, os, sys
d = os.path.dirname(sys.argv[1])
def points(g):
    return {(p["policy"], p["alpha"]): p for p in json.load(open(d + "/p-%s.json" % g))["points"]}
def dominates(q, p):
    return q["peak"] <= p["peak"] and q["makespan"] <= p["makespan"] and \
        (q["peak"] < p["peak"] or q["makespan"] < p["makespan"])
for g in ("b", "r2", "r1"):
    pts = points(g)
    for p in pts.values():
        assert p["pareto"] == (not any(dominates(q, p) for q in pts.values())), (g, p)
    for pol in ("fifo", "priority", "dfs", "postorder", "lpmf", "bfs"):
        s = json.load(open(d + "/s-%s-%s.json" % (g, pol)))
        assert (s["peak"], s["makespan"]) == (pts[pol, None]["peak"], pts[pol, None]["makespan"]), (g, pol)
b, r2 = points("b"), points("r2")
# exact values (bytes, ms) of the points that decide
assert (b["priority", None]["peak"], b["priority", None]["makespan"]) == (7602176, 0.549621), b["priority", None]
assert (b["dfs", None]["peak"], b["dfs", None]["makespan"]) == (7602176, 0.513832), b["dfs", None]
assert not b["priority", None]["pareto"] and not b["best", None]["pareto"] and b["dfs", None]["pareto"]
assert (r2["fifo", None]["peak"], r2["fifo", None]["makespan"]) == (2360299, 0.0426), r2["fifo", None]
assert (r2["bfs", None]["peak"], r2["bfs", None]["makespan"]) == (2346051, 0.0426), r2["bfs", None]
assert not r2["fifo", None]["pareto"] and r2["bfs", None]["pareto"]
'
    OUT=$TMP/out
    # The text tells the points apart: peaks that "2.2 MiB" would merge are
    # written in bytes, makespans with the digits that part them.
    run "$M" compare --pareto "$TMP/r2.json"
    expect_grep "$OUT" "fifo            -     2360299 B     0.0426 ms  " "pareto text: fifo in bytes, off the front"
    expect_grep "$OUT" "bfs             -     2346051 B     0.0426 ms  *" "pareto text: bfs in bytes, on it"
    run "$M" compare --pareto "$TMP/b.json"
    expect_grep "$OUT" "dfs             -       7.2 MiB      0.514 ms  *" "pareto text: dfs on the front"
    # --exact: exact's search is a point too, after best; its peak the least.
    run "$M" compare --pareto --exact --time-limit 5 -f json "$PRE"
    expect_rc 0 "--pareto --exact"
    py "--pareto --exact: exact is a point" '
import json, sys
pts = json.load(open(sys.argv[1]))["points"]
names = [p["policy"] for p in pts]
assert names.index("exact") == names.index("best") + 1, names
ex = pts[names.index("exact")]
assert ex["peak"] == min(p["peak"] for p in pts), ex
'
    usage_error compare "--exact without --pareto" "--exact adds exact to --pareto's points" "$PRE" --exact
    usage_error compare "--pareto --exact with --alpha" "it takes no --alpha" "$PRE" --pareto --exact --alpha 0.5
}

# compare on a graph without Latency: no makespan column and no "0 ms",
# "no latencies" said once; JSON's makespan null, CSV's empty. With
# latencies the column is there.
group_no_latency() {
    run "$M" compare "$SRC/samples/demo.json"
    expect_rc 0 "compare without latencies"
    if head -n 2 "$OUT" | tail -n 1 | grep -q makespan; then bad "no latencies: a makespan column"; else ok; fi
    if grep -q " 0 ms" "$OUT"; then bad "no latencies: '0 ms' written"; else ok; fi
    if [ "$(grep -c "no latencies" "$OUT")" = 1 ]; then ok; else bad "no latencies: not said once"; fi
    expect_grep "$OUT" "no latencies: no node has a Latency, so there is no makespan" "no latencies: the words"
    run "$M" compare -f json "$SRC/samples/demo.json"
    py "no latencies: JSON makespan null" '
import json, sys
rs = json.load(open(sys.argv[1]))["results"]
assert rs and all("makespan" in r and r["makespan"] is None for r in rs), rs
'
    run "$M" compare -f csv --policies fifo "$SRC/samples/demo.json"
    expect_grep "$OUT" "fifo,11010048,30,1.000000,,,false," "no latencies: CSV makespan empty"
    if grep -q "false,$" "$OUT"; then ok; else bad "no latencies: CSV's last cell not empty"; fi
    # --pareto too: the peaks alone, the front the least peak
    run "$M" compare --pareto "$SRC/samples/demo.json"
    expect_rc 0 "--pareto without latencies"
    if grep -q "ms" "$OUT"; then bad "--pareto without latencies: a time written"; else ok; fi
    if [ "$(grep -c "no latencies" "$OUT")" = 1 ]; then ok; else bad "--pareto: no latencies not said once"; fi
    expect_grep "$OUT" "priority        -       7.0 MiB  *" "--pareto without latencies: the least peak marked"
    run "$M" compare --pareto -f json "$SRC/samples/demo.json"
    py "--pareto without latencies: JSON nulls" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["critical_path"] is None and d["makespan_bound"] is None, d
least = min(p["peak"] for p in d["points"])
for p in d["points"]:
    assert p["makespan"] is None and p["pareto"] == (p["peak"] == least), p
'
    run "$M" compare --pareto -f csv "$SRC/samples/demo.json"
    expect_grep "$OUT" "fifo,,11010048,,false" "--pareto without latencies: CSV makespan empty"
    run "$M" compare "$PRE"
    if head -n 2 "$OUT" | tail -n 1 | grep -q makespan; then ok; else bad "latencies: no makespan column"; fi
    if grep -q "no latencies" "$OUT"; then bad "latencies: 'no latencies' said"; else ok; fi
}

# ------------------------------------------------------------------ driver

run_groups
