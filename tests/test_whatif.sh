#!/usr/bin/env bash
# test_whatif.sh: end-to-end checks of "memtris whatif": bad options (usage errors, status 2),
# a small training graph whose rows are worked out by hand (text and JSON), a graph without
# Categories (the rows that make sense, the others saying what is missing), the training
# samples (JSON whole, the baseline equal to schedule's peak, each technique no worse), and
# the elementwise list the same as tools/graphkit.py's.
# Usage: test_whatif.sh MEMTRIS SOURCE_DIR [GROUP]. Needs python3. Prints "N passed, M failed".
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
. "$(dirname "$0")/clilib.sh" whatif

# tests/test_whatif.c's graph: W weight 100, X input 40, A and R activations 200 (conv makes
# A, relu reads it and makes R), G gradient 100, S workspace 60 (bwd's); latencies 4, 1, 6,
# 2. Given: the peak 500 B, 13 ms; mixed precision 300 B, accumulation (k 4) 300 B, fusion
# (relu into conv) 460 B, all three 185 B; every plan needs 460 B, so no checkpoint at 50%.
TRAIN=$TMP/train.json
cat >"$TRAIN" <<'EOF'
{"Nodes": [
  {"Id": 0, "Op": "ALLOC", "Size": 100, "BufId": 1, "Category": "weight"},
  {"Id": 1, "Op": "ALLOC", "Size": 40, "BufId": 2, "Category": "input"},
  {"Id": 2, "Op": "Input", "Inputs": [2], "Phase": "forward"},
  {"Id": 3, "Op": "ALLOC", "Size": 200, "BufId": 3, "Category": "activation"},
  {"Id": 4, "Op": "conv", "Latency": 4, "Inputs": [1, 2, 3], "Phase": "forward"},
  {"Id": 5, "Op": "FREE", "BufId": 2},
  {"Id": 6, "Op": "ALLOC", "Size": 200, "BufId": 4, "Category": "activation"},
  {"Id": 7, "Op": "aten::ReLU.default", "Latency": 1, "Inputs": [3, 4], "Phase": "forward"},
  {"Id": 8, "Op": "FREE", "BufId": 3},
  {"Id": 9, "Op": "ALLOC", "Size": 100, "BufId": 5, "Category": "gradient"},
  {"Id": 10, "Op": "ALLOC", "Size": 60, "BufId": 6, "Category": "workspace"},
  {"Id": 11, "Op": "bwd", "Latency": 6, "Inputs": [1, 4, 5, 6], "Phase": "backward"},
  {"Id": 12, "Op": "FREE", "BufId": 4},
  {"Id": 13, "Op": "FREE", "BufId": 6},
  {"Id": 14, "Op": "sgd", "Latency": 2, "Inputs": [1, 5], "Phase": "optimizer"},
  {"Id": 15, "Op": "FREE", "BufId": 5}],
"Edges": [[1, 2], [3, 4], [2, 4], [4, 5], [6, 7], [4, 7], [7, 8], [9, 11], [10, 11],
          [7, 11], [11, 12], [11, 13], [11, 14], [14, 15]]}
EOF

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
    for k in 0 -1 -4 65537 4294967297 99999999999999999999 abc 4x 1.5 "" " 4" +4 0x4; do
        usage_error "-k '$k'" "$M" whatif "$TRAIN" -k "$k"
    done
    run "$M" whatif "$TRAIN" -k 0
    expect_grep "$ERR" "-k wants a whole number of micro-batches from 1 to 65536, not '0'" \
        "-k 0: the message"
    usage_error "--format csv" "$M" whatif "$TRAIN" --format csv
    usage_error "--policy unknown" "$M" whatif "$TRAIN" --policy frobnicate
    usage_error "no FILE" "$M" whatif
    usage_error "two FILEs" "$M" whatif "$TRAIN" "$TRAIN"
    run "$M" whatif --help
    expect_rc 0 "whatif --help"
    expect_grep "$OUT" "Usage: memtris whatif FILE [-k K] [-p POLICY] [--format text|json]" \
        "--help: usage"
    expect_grep "$OUT" "no speed model for precision" "--help: mixed precision's time"
    # the claim as the seed's table and the sweep say it: checkpointing costs time
    expect_grep "$OUT" "(claim: 65% less memory for 15%" "--help: checkpointing's claim"
    expect_grep "$OUT" "\"extra_time_pct\" (checkpointing's: more time" "--help: the claim's key"
    if grep -q "15% faster" "$OUT"; then bad "--help: checkpointing is not 15% faster"; else ok; fi
    run "$M" --help
    expect_grep "$OUT" "  whatif FILE" "memtris --help lists whatif"
    run "$M" whatif "$TMP/missing.json"
    expect_rc 1 "a missing file"
}

group_by_hand() {
    run "$M" whatif "$TRAIN"
    expect_rc 0 "text"
    expect_grep "$OUT" "baseline (given)              500 B       -    13.0 ms" "text: baseline"
    expect_grep "$OUT" "mixed precision               300 B   40.0%    13.0 ms   +0.0%  50% less memory, 40% faster" \
        "text: mixed precision"
    expect_grep "$OUT" "accumulation k=4              300 B   40.0%" "text: accumulation"
    expect_grep "$OUT" "fusion (1 ops)                460 B    8.0%" "text: fusion"
    expect_grep "$OUT" "mixed+accum+fusion            185 B   63.0%" "text: all three"
    # the bound: at relu, its input and output (400 B) and the weight, which cannot be made
    # again (present from the start, kept), are all there; with offload the weight may go
    expect_grep "$OUT" "checkpointing 50%        n/a: no plan fits in 250 B: every plan needs 500 B" \
        "text: no checkpoint plan at 50%"
    expect_grep "$OUT" "100% of the peak (activation 400 B (80%), weight 100 B (20%) at Id 7 (aten::ReLU.default)); with offload: 460 B (92%)" \
        "text: what fills the least budget, and with offload"
    expect_grep "$OUT" "time unchanged: memtris has no speed model for" "text: the footnote"
    run "$M" whatif "$TRAIN" --format json -k 1
    expect_rc 0 "json, k 1"
    py "json, k 1" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["k"] == 1 and d["policy"] == "given" and d["solver"] == "greedy", d
assert d["has_categories"] and d["has_phases"] and d["has_latency"]
rows = {r["name"]: r for r in d["rows"]}
assert list(rows) == ["baseline", "checkpointing", "mixed_precision", "accumulation", "fusion",
                      "combined", "combined_checkpointing"], list(rows)
assert rows["baseline"]["peak"] == 500 and rows["baseline"]["time_ms"] == 13
assert rows["accumulation"]["peak"] == 500, rows["accumulation"]   # one micro-batch: as given
assert rows["mixed_precision"]["peak"] == 300 and rows["fusion"]["peak"] == 460
assert rows["fusion"]["fused"] == 1
assert rows["checkpointing"]["peak"] is None and rows["checkpointing"]["budget"] == 250
assert "no plan fits" in rows["checkpointing"]["why"]
assert rows["mixed_precision"]["claim"] == {"memory_saving_pct": 50, "speedup_pct": 40,
                                           "extra_time_pct": None}
# checkpointing is claimed to cost 15% more time, not to be 15% faster
assert rows["checkpointing"]["claim"] == {"memory_saving_pct": 65, "speedup_pct": None,
                                         "extra_time_pct": 15}, rows["checkpointing"]["claim"]
# a row without a plan: every figure null, not 0; the budget asked stays
c = rows["checkpointing"]
assert [c[k] for k in ("peak", "saving_pct", "time_ms", "time_change_pct", "extra_ms", "reruns",
                       "fused")] == [None] * 7, c
for r in d["rows"]:
    if r["peak"] is None:
        assert all(r[k] is None for k in r if k not in ("name", "why", "claim", "budget")), r
assert rows["accumulation"]["claim"]["memory_saving_pct"] == 75
assert rows["fusion"]["claim"]["memory_saving_pct"] == 30
assert rows["combined"]["claim"] is None
assert all(r["time_ms"] == 13 for r in d["rows"] if r["peak"] is not None)
' "$OUT"
    run "$M" whatif "$TRAIN" -p priority
    expect_rc 0 "--policy priority"
    expect_grep "$OUT" "baseline (priority)" "--policy: named in the row"
}

group_uncategorized() {
    cat >"$TMP/plain.json" <<'EOF'
{"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 8, "BufId": 1},
  {"Id": 1, "Op": "conv", "Inputs": [1]},
  {"Id": 2, "Op": "ALLOC", "Size": 8, "BufId": 2},
  {"Id": 3, "Op": "Relu", "Inputs": [1, 2]},
  {"Id": 4, "Op": "FREE", "BufId": 1}, {"Id": 5, "Op": "FREE", "BufId": 2}],
 "Edges": [[0, 1], [2, 3], [1, 3], [3, 4], [3, 5]]}
EOF
    run "$M" whatif "$TMP/plain.json"
    expect_rc 0 "no Categories"
    expect_grep "$OUT" "fusion (1 ops)                  8 B   50.0%" "no Categories: fusion"
    expect_grep "$OUT" "mixed precision          n/a: needs Categories" "no Categories: mixed"
    expect_grep "$OUT" "accumulation k=4         n/a: needs Categories" "no Categories: accumulation"
    expect_grep "$OUT" "time: the graph has no Latency" "no Latency: said"
    run "$M" whatif "$TMP/plain.json" --format json
    expect_rc 0 "no Categories: json"
    py "no Categories: null figures, a budget only where worked out" '
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1]))["rows"]}
c, a = rows["checkpointing"], rows["combined_checkpointing"]
assert c["budget"] == 8 and c["peak"] is None and c["extra_ms"] is None and c["reruns"] is None, c
assert a["budget"] is None and a["extra_ms"] is None and a["reruns"] is None, a
assert a["fused"] is None and rows["mixed_precision"]["fused"] is None, a
assert rows["fusion"]["fused"] == 1 and rows["baseline"]["fused"] == 0, rows
' "$OUT"
}

# Ids that are not a topological order: given refuses the graph (status 1, its reason); under
# another policy every row is made, relu folding into conv, which runs before it.
group_order() {
    cat >"$TMP/rev.json" <<'EOF'
{"Nodes": [{"Id": 9, "Op": "ALLOC", "Size": 8, "BufId": 1, "Category": "activation"},
  {"Id": 3, "Op": "conv", "Inputs": [1], "Phase": "forward"},
  {"Id": 7, "Op": "ALLOC", "Size": 8, "BufId": 2, "Category": "gradient"},
  {"Id": 1, "Op": "relu", "Inputs": [1, 2], "Phase": "backward"},
  {"Id": 0, "Op": "FREE", "BufId": 1}, {"Id": 2, "Op": "FREE", "BufId": 2}],
 "Edges": [[9, 3], [7, 1], [3, 1], [1, 0], [1, 2]]}
EOF
    run "$M" whatif "$TMP/rev.json"
    expect_rc 1 "Ids out of order, given"
    expect_grep "$ERR" "is not a topological order: the edge [9, 3]" "given: why"
    expect_empty "$OUT" "given: nothing on stdout"
    run "$M" whatif "$TMP/rev.json" -p priority
    expect_rc 0 "Ids out of order, priority"
    expect_grep "$OUT" "fusion (1 ops)                  8 B   50.0%" "priority: relu folds into conv"
    expect_grep "$OUT" "checkpointing 50%        n/a: no plan fits in 8 B: every plan needs 16 B" \
        "priority: checkpointing on the graph renumbered"
}

group_samples() {
    local f
    for f in "$RESNET" "$TRANSFORMER"; do
        run "$M" whatif "$f" --format json
        expect_rc 0 "$(basename "$f")"
        cp "$OUT" "$TMP/whatif.json"
        run "$M" schedule "$f" -p given --format json
        py "$(basename "$f"): each technique no worse, the baseline schedule's peak" '
import json, sys
d, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
rows = {r["name"]: r for r in d["rows"]}
base = rows["baseline"]["peak"]
assert base == s["peak"], (base, s["peak"])
for name in ("mixed_precision", "accumulation", "combined"):
    assert rows[name]["peak"] is not None and rows[name]["peak"] < base, (name, rows[name])
assert rows["combined"]["peak"] <= min(rows["mixed_precision"]["peak"], rows["accumulation"]["peak"])
assert rows["fusion"]["fused"] > 0, rows["fusion"]
for r in d["rows"]:
    assert (r["peak"] is None) == ("why" in r), r
    if r["peak"] is not None:
        assert abs(r["saving_pct"] - 100 * (base - r["peak"]) / base) < 0.01, r
' "$TMP/whatif.json" "$OUT"
    done
}

# A generated training step with Latency: checkpointing at 50% finds a plan (its peak within
# the budget, its time the baseline's plus the reruns'), and the other rows keep the time.
group_gen_train() {
    run "$M" gen train -n 2000 -o "$TMP/gt.json"
    expect_rc 0 "gen train"
    run "$M" whatif "$TMP/gt.json" --format json
    expect_rc 0 "gen train: whatif"
    py "gen train: the times" '
import json, sys
d = json.load(open(sys.argv[1]))
rows = {r["name"]: r for r in d["rows"]}
b, c = rows["baseline"], rows["checkpointing"]
assert d["has_latency"] and b["time_ms"] > 0
assert c["peak"] is not None and c["peak"] <= c["budget"] and c["reruns"] > 0, c
assert abs(c["time_ms"] - (b["time_ms"] + c["extra_ms"])) < 1e-6 * b["time_ms"], c
for n in ("mixed_precision", "accumulation", "fusion", "combined"):
    assert abs(rows[n]["time_ms"] - b["time_ms"]) < 1e-6 * b["time_ms"], rows[n]
    assert rows[n]["time_change_pct"] == 0, rows[n]
assert c["claim"] == {"memory_saving_pct": 65, "speedup_pct": None, "extra_time_pct": 15}, c
' "$OUT"
    # the text's checkpointing row, with a plan: the claim in the sweep's words
    run "$M" whatif "$TMP/gt.json"
    expect_rc 0 "gen train: whatif text"
    py "gen train: the checkpointing row says 65% less memory for 15% more time" '
import sys
row = [l for l in open(sys.argv[1]) if l.startswith("checkpointing 50%")]
assert len(row) == 1 and "n/a" not in row[0], row
assert row[0].rstrip().endswith("65% less memory for 15% more time"), row
assert "faster" not in row[0], row
' "$OUT"
}

# whatif_transform.c's elementwise list is tools/graphkit.py's INPLACE_ELEMENTWISE_OPS.
group_elementwise_list() {
    py "the elementwise list agrees with graphkit" '
import re, sys
sys.path.insert(0, sys.argv[2])
import graphkit
src = open(sys.argv[1]).read()
body = src[src.index("/* elementwise-begin */"):src.index("/* elementwise-end */")]
body = body[body.index("{"):]
c = set(re.findall(r"\"([^\"]+)\"", body))
assert c == set(graphkit.INPLACE_ELEMENTWISE_OPS), (c ^ set(graphkit.INPLACE_ELEMENTWISE_OPS))
' "$SRC/src/sched/whatif/whatif_transform.c" "$SRC/tools"
}

run_groups
