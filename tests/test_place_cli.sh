#!/usr/bin/env bash
# test_place_cli.sh: end-to-end checks of "memtris place" (MiniMalloc's CSV in
# and out, its README example, every error with its message and status 1, the
# chain's interval semantics), "plan --format minimalloc" read back by place,
# "gen packing", and MiniMalloc's challenging set when it is there.
# Usage: test_place_cli.sh MEMTRIS SOURCE_DIR BENCH_DIR [GROUP]   (BENCH_DIR:
# the folder of MiniMalloc's CSVs; a group that needs it skips when it is not
# there). Needs python3. Prints "N passed, M failed" last.
set -u

if [ $# -lt 3 ]; then
    echo "usage: $0 MEMTRIS SOURCE_DIR BENCH_DIR [GROUP]" >&2
    exit 2
fi
M=$1
SRC=$2
BENCH=$3
GROUP=${4:-all}
. "$(dirname "$0")/clilib.sh" place

# The placers the binary knows, from the error for an unknown one.
placers() {
    "$M" place --placer no-such-placer "$TMP/readme.csv" 2>&1 >/dev/null | sed -n 's/.*unknown placer .* (known: \(.*\))$/\1/p' | tr -d ','
}

# MiniMalloc's README: its example input and the solution it prints for a
# capacity of 12.
printf 'id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n' >"$TMP/readme.csv"
printf 'id,lower,upper,size,offset\nb1,0,3,4,8\nb2,3,9,4,8\nb3,0,9,4,4\nb4,9,21,4,4\nb5,0,21,4,0\n' >"$TMP/readme-solved.csv"

# json_field FILE KEY: a number field of plan's or place's JSON (one line,
# the field before "buffers").
json_field() {
    sed -n "s/.*\"$2\": \([0-9]*\),.*/\1/p" "$1"
}

# The checks of a CSV that place wrote: argv: OUT.csv IN.csv. The rows and
# columns of IN (offset aside) in the same order, then an offset column, and
# no two buffers live at once overlapping (MiniMalloc's validator's test).
CHECK_CSV='
import csv, sys
out = list(csv.reader(open(sys.argv[1])))
inp = list(csv.reader(open(sys.argv[2])))
keep = [i for i, c in enumerate(inp[0]) if c != "offset"]
assert out[0] == [inp[0][i] for i in keep] + ["offset"], out[0]
assert len(out) == len(inp), (len(out), len(inp))
for o, i in zip(out[1:], inp[1:]):
    assert o[:-1] == [i[k] for k in keep], (o, i)
h = out[0]
rows = [dict(zip(h, r)) for r in out[1:]]
for a in rows:
    for b in rows:
        if a is b: continue
        lo, up = int(a["lower"]), int(a["upper"])
        if int(b["lower"]) >= up or lo >= int(b["upper"]): continue
        ao, bo = int(a["offset"]), int(b["offset"])
        assert ao + int(a["size"]) <= bo or bo + int(b["size"]) <= ao, (a, b)
'

# py DESC SCRIPT ARGS...: runs python3 on SCRIPT with ARGS; a check.
py() {
    local desc=$1 script=$2
    shift 2
    if python3 -c "$script" "$@" >"$TMP/py.out" 2>&1; then ok
    else bad "$desc: $(tail -c 400 "$TMP/py.out")"; fi
}

group_readme() {
    local p
    run "$M" place "$TMP/readme.csv"
    expect_rc 0 "place the README example"
    expect_empty "$ERR" "place the README example (stderr)"
    py "the README example: same rows, an offset column, a valid plan" "$CHECK_CSV" "$OUT" "$TMP/readme.csv"
    # Every placer finds MiniMalloc's arena, 12 bytes, its peak.
    for p in $(placers); do
        run "$M" place --placer "$p" --format json "$TMP/readme.csv"
        expect_rc 0 "place --placer $p (README)"
        if [ "$(json_field "$OUT" arena)" = 12 ] && [ "$(json_field "$OUT" lower_bound)" = 12 ]; then ok
        else bad "place --placer $p on the README example: arena $(json_field "$OUT" arena), not 12"; fi
    done
    # MiniMalloc's own output reads back: its offsets are not kept (a warning
    # says so), the plan is the one of the input without them.
    "$M" place "$TMP/readme.csv" >"$TMP/plain.csv"
    run "$M" place "$TMP/readme-solved.csv"
    expect_rc 0 "place MiniMalloc's solution"
    expect_same "$OUT" "$TMP/plain.csv" "MiniMalloc's solution placed anew"
    expect_grep "$ERR" "readme-solved.csv: warning: the offset column is not kept: memtris places every buffer anew" "the offset column: a warning"
    # Its solution is a valid plan of 12 bytes by the same check.
    py "MiniMalloc's README solution passes the check" "$CHECK_CSV" "$TMP/readme-solved.csv" "$TMP/readme-solved.csv"
    # json and text carry the ids and times.
    run "$M" place -f json "$TMP/readme.csv"
    expect_grep "$OUT" '{"id": "b1", "offset": ' "json: the CSV's ids"
    expect_grep "$OUT" '"lower": 9, "upper": 21}' "json: the CSV's times"
    run "$M" place -f text "$TMP/readme.csv"
    expect_grep "$OUT" "placer best, align 1 B; 5 buffers, times 0 to 21" "text: the head"
    expect_grep "$OUT" "lower bound    12 B (12 bytes): the peak of live bytes, at time 0" "text: the bound"
    # -o, --svg, stdin
    run "$M" place -o "$TMP/o.csv" "$TMP/readme.csv"
    expect_rc 0 "place -o"
    expect_empty "$OUT" "place -o (stdout)"
    expect_same "$TMP/o.csv" "$TMP/plain.csv" "place -o writes the CSV"
    run "$M" place --svg "$TMP/p.svg" "$TMP/readme.csv"
    expect_same "$OUT" "$TMP/plain.csv" "place --svg: the CSV still on stdout"
    py "place --svg is well-formed XML" 'import sys, xml.dom.minidom as d; d.parse(sys.argv[1])' "$TMP/p.svg"
    run bash -c '"$0" place - <"$1"' "$M" "$TMP/readme.csv"
    expect_same "$OUT" "$TMP/plain.csv" "place - reads standard input"
}

# bad_csv DESC TEXT MESSAGE: place on TEXT (printf format) fails with status 1,
# nothing on stdout, and MESSAGE (after the file name) on stderr.
bad_csv() {
    printf "$2" >"$TMP/bad.csv"
    run "$M" place "$TMP/bad.csv"
    expect_rc 1 "$1"
    expect_empty "$OUT" "$1 (stdout)"
    expect_grep "$ERR" "$TMP/bad.csv:$3" "$1: the message"
}

group_errors() {
    local h='id,lower,upper,size\n'
    bad_csv "an empty file" '' "1:1: error: expected a header line id,lower,upper,size (optionally alignment, gaps, offset), found an empty file"
    bad_csv "blank lines only" '\n\n' "1:1: error: expected a header line id,lower,upper,size (optionally alignment, gaps, offset), found an empty line"
    bad_csv "a missing column" 'id,lower,upper\nb,0,1\n' "1:15: error: the header lacks the size column: expected id,lower,upper,size (optionally alignment, gaps, offset)"
    bad_csv "an unknown column" 'id,lower,upper,size,foo\n' "1:21: error: unknown column 'foo': expected id,lower,upper,size (optionally alignment, gaps, offset)"
    bad_csv "a repeated column" 'id,lower,start,upper,size\n' "1:10: error: column 'start' repeats the lower column"
    bad_csv "not a number" "${h}b1,x,3,4\n" "2:4: error: expected an integer for lower, found 'x'"
    bad_csv "an empty number" "${h}b1,0,3,\n" "2:8: error: expected an integer for size, found ''"
    bad_csv "negative" "${h}b1,-1,3,4\n" "2:4: error: lower must not be negative, found '-1'"
    bad_csv "lower = upper" "${h}b1,3,3,4\n" "2:4: error: an empty lifetime: lower 3 is not below upper 3"
    bad_csv "lower > upper" "${h}b1,0,3,4\nb2,7,5,4\n" "3:4: error: an empty lifetime: lower 7 is not below upper 5"
    bad_csv "a duplicate id" "${h}b1,0,3,4\nb2,0,3,4\nb1,1,2,3\n" "4:1: error: duplicate id 'b1' (first on line 2)"
    bad_csv "size 2^53" "${h}b1,0,3,9007199254740992\n" "2:8: error: size '9007199254740992' is too large: at most 2^53-1 (9007199254740991)"
    bad_csv "size past 2^64" "${h}b1,0,3,99999999999999999999999\n" "2:8: error: size '99999999999999999999999' is too large: at most 2^53-1 (9007199254740991)"
    bad_csv "a time past 2^53-1" "${h}b1,0,9007199254740992,4\n" "2:6: error: upper '9007199254740992' is too large: at most 2^53-1 (9007199254740991)"
    bad_csv "too many fields" "${h}b1,0,3,4,5\n" "2:9: error: expected 4 fields, found more"
    bad_csv "too few fields" "${h}b1,0,3\n" "2:7: error: expected 4 fields, found 3"
    bad_csv "a blank line before rows" "${h}b1,0,3,4\n\nb2,0,3,4\n" "3:1: error: a blank line among the rows: expected a row (MiniMalloc stops reading at a blank line)"
    bad_csv "gaps" 'id,lower,upper,size,gaps\nb1,0,3,4,1-2\n' "2:10: error: gaps '1-2': memtris places a buffer live on one interval, so the gaps column must be empty"
    bad_csv "an alignment not a power of two" 'id,lower,upper,size,alignment\nb1,0,3,4,3\n' "2:10: error: expected a power of two from 1 to 2^30 for alignment, found '3'"
    bad_csv "an empty id" "${h},0,3,4\n" "2:1: error: expected an id, found an empty field"
    bad_csv "a quote in an id" "${h}b\"1,0,3,4\n" "2:1: error: id 'b\"1' has a character other than printable ASCII, or a quote or backslash"
    bad_csv "a bad offset" 'id,lower,upper,size,offset\nb1,0,3,4,x\n' "2:10: error: expected an integer for offset, found 'x'"
    # live bytes past 2^63-1: a runtime failure, status 1
    { printf "$h"; for i in $(seq 1 1100); do printf 'b%d,0,1,9007199254740991\n' "$i"; done; } >"$TMP/sum.csv"
    run "$M" place "$TMP/sum.csv"
    expect_rc 1 "live bytes past 2^63-1"
    expect_grep "$ERR" "live memory passes 2^63-1 bytes" "live bytes past 2^63-1: said"
    run "$M" place "$TMP/no-such.csv"
    expect_rc 1 "a missing file"
    expect_grep "$ERR" "$TMP/no-such.csv: error: cannot open" "a missing file: said"
    # usage errors: status 2
    run "$M" place --format minimalloc "$TMP/readme.csv"
    expect_rc 2 "place --format minimalloc is plan's"
    expect_grep "$ERR" "unknown format 'minimalloc' (text, json or csv)" "place's formats named"
    run "$M" place --placer nope "$TMP/readme.csv"
    expect_rc 2 "place --placer nope"
    run "$M" place --align 3 "$TMP/readme.csv"
    expect_rc 2 "place --align 3"
    run "$M" place
    expect_rc 2 "place without a file"
}

group_accepted() {
    # CRLF, trailing blank lines, a byte order mark, columns in another order,
    # MiniMalloc's older names (end is inclusive), an alignment column.
    printf 'id,lower,upper,size\r\nb1,0,3,4\r\nb2,3,9,4\r\n\r\n\n' >"$TMP/crlf.csv"
    run "$M" place -f json "$TMP/crlf.csv"
    expect_rc 0 "CRLF and trailing blank lines"
    expect_grep "$OUT" '"arena": 4,' "CRLF: [0,3) and [3,9) share bytes"
    printf '\xef\xbb\xbfsize,upper,id,lower\n4,3,b1,0\n4,9,b2,2\n' >"$TMP/order.csv"
    run "$M" place "$TMP/order.csv"
    expect_rc 0 "columns in another order, a BOM"
    expect_grep "$OUT" "id,lower,upper,size,offset" "another order: written in MiniMalloc's"
    expect_grep "$OUT" "b2,2,9,4," "another order: the row's values"
    printf 'buffer,start,end,size\nb1,0,2,4\nb2,3,8,4\n' >"$TMP/old.csv"
    run "$M" place -f json "$TMP/old.csv"
    expect_rc 0 "MiniMalloc's older header"
    expect_grep "$OUT" '"lower": 0, "upper": 3}' "end is inclusive: upper = end + 1"
    expect_grep "$OUT" '"arena": 4,' "old header: [0,3) and [3,9) share bytes"
    run "$M" place "$TMP/old.csv"
    expect_grep "$OUT" "id,lower,upper,size,offset" "old header: written with the newer names"
    printf 'id,lower,upper,size,alignment\nb1,0,3,5,8\nb2,0,3,4,1\n' >"$TMP/align.csv"
    run "$M" place -f json "$TMP/align.csv"
    expect_rc 0 "an alignment column"
    expect_grep "$OUT" '"align": 8, "arena": 16,' "the largest alignment is the plan's"
    run "$M" place "$TMP/align.csv"
    expect_grep "$OUT" "id,lower,upper,size,alignment,offset" "the alignment column is kept"
    printf 'id,lower,upper,size,gaps\nb1,0,3,4,\n' >"$TMP/gaps.csv"
    run "$M" place "$TMP/gaps.csv"
    expect_rc 0 "an empty gaps column"
    printf 'id,lower,upper,size\n' >"$TMP/none.csv"
    run "$M" place -f json "$TMP/none.csv"
    expect_rc 0 "no rows"
    expect_grep "$OUT" '"arena": 0,' "no rows: an empty arena"
}

# The chain: [a, b) and [b, c) may share bytes; intervals that overlap may not.
group_chain() {
    printf 'id,lower,upper,size\nx,0,5,100\ny,5,9,100\n' >"$TMP/touch.csv"
    run "$M" place -f json --placer first-fit "$TMP/touch.csv"
    expect_grep "$OUT" '"arena": 100, "lower_bound": 100,' "[0,5) and [5,9) do not overlap"
    printf 'id,lower,upper,size\ny,5,9,100\nx,0,5,100\n' >"$TMP/touch2.csv"
    run "$M" place -f json --placer first-fit "$TMP/touch2.csv"
    expect_grep "$OUT" '"arena": 100, "lower_bound": 100,' "... in either row order"
    printf 'id,lower,upper,size\nx,0,5,100\ny,4,9,100\n' >"$TMP/overlap.csv"
    run "$M" place -f json --placer first-fit "$TMP/overlap.csv"
    expect_grep "$OUT" '"arena": 200, "lower_bound": 200,' "[0,5) and [4,9) overlap"
    printf 'id,lower,upper,size\nx,0,9,100\ny,3,4,100\n' >"$TMP/inside.csv"
    run "$M" place -f json --placer first-fit "$TMP/inside.csv"
    expect_grep "$OUT" '"arena": 200, "lower_bound": 200,' "[3,4) inside [0,9) overlaps"
}

# plan --format minimalloc, then place with the same placer: the same arena.
group_roundtrip() {
    local f p a want got
    for f in "$SRC/samples/demo.json" "$SRC/samples/resnet50.json" "$SRC/tests/data/branches.json"; do
        for p in $(placers); do
            for a in 1 64; do
                "$M" plan --placer "$p" --align "$a" -f json "$f" >"$TMP/plan.json" 2>/dev/null
                "$M" plan --placer "$p" --align "$a" -f minimalloc "$f" >"$TMP/plan.csv" 2>/dev/null
                run "$M" place --placer "$p" -f json "$TMP/plan.csv"
                want=$(json_field "$TMP/plan.json" arena)
                got=$(json_field "$OUT" arena)
                if [ "$rc" = 0 ] && [ -n "$want" ] && [ "$want" = "$got" ]; then ok
                else bad "$(basename "$f") --placer $p --align $a: plan's arena $want, place's $got"; fi
            done
        done
    done
    # The CSV: a row per buffer in BufId order, lower/upper the 0-based steps.
    run "$M" plan --placer first-fit -f minimalloc "$SRC/samples/seed-example.json"
    expect_rc 0 "plan --format minimalloc"
    expect_grep "$OUT" "id,lower,upper,size,offset" "plan --format minimalloc: the header"
    "$M" plan --placer first-fit -f csv "$SRC/samples/seed-example.json" >"$TMP/plan.csv" 2>/dev/null
    py "plan's minimalloc rows are its CSV's, steps from 0, sizes aligned" '
import csv, sys
mm = list(csv.DictReader(open(sys.argv[1])))
pc = list(csv.DictReader(open(sys.argv[2])))
assert len(mm) == len(pc) > 0
for m, p in zip(mm, pc):
    assert m["id"] == p["buf"] and m["offset"] == p["offset"], (m, p)
    assert int(m["lower"]) == int(p["alloc_step"]) - 1, (m, p)
    assert int(m["size"]) == -(-int(p["size"]) // 64) * 64, (m, p)
' "$OUT" "$TMP/plan.csv"
}

group_packing() {
    local n s
    run "$M" gen packing -n 50 --seed 3 --format csv
    expect_rc 0 "gen packing --format csv"
    cp "$OUT" "$TMP/p1.csv"
    run "$M" gen packing -n 50 --seed 3 --format csv
    expect_same "$OUT" "$TMP/p1.csv" "gen packing: the same seed, the same bytes"
    run "$M" gen packing -n 50 --seed 4 --format csv
    if cmp -s "$OUT" "$TMP/p1.csv"; then bad "gen packing: another seed, the same problem"; else ok; fi
    py "gen packing: 50 rows, its offsets a plan of exactly the capacity" '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 50
assert max(int(r["offset"]) + int(r["size"]) for r in rows) == 1048576
for t in range(100):
    live = sum(int(r["size"]) for r in rows if int(r["lower"]) <= t < int(r["upper"]))
    assert live == 1048576, (t, live)
' "$TMP/p1.csv"
    py "gen packing's own offsets pass the check" "$CHECK_CSV" "$TMP/p1.csv" "$TMP/p1.csv"
    # The graph: a chain whose every policy's peak is the capacity.
    run "$M" gen packing -n 40 --seed 9 -c 4096 -o "$TMP/p.json"
    expect_rc 0 "gen packing -o (a graph)"
    run "$M" validate "$TMP/p.json"
    expect_rc 0 "gen packing's graph validates"
    expect_empty "$ERR" "gen packing's graph: no warning"
    run "$M" compare -f csv --policies all "$TMP/p.json"
    expect_rc 0 "compare on gen packing's graph"
    py "every policy: the same peak, the capacity" '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(int(r["peak"]) == 4096 for r in rows), rows
' "$OUT"
    # The graph is the one place makes of the CSV: the same plan.
    "$M" gen packing -n 40 --seed 9 -c 4096 --format csv >"$TMP/p.csv"
    for s in first-fit best; do
        "$M" plan --placer "$s" --align 1 -f json "$TMP/p.json" >"$TMP/a.json"
        "$M" place --placer "$s" -f json "$TMP/p.csv" >"$TMP/b.json" 2>/dev/null
        if [ "$(json_field "$TMP/a.json" arena)" = "$(json_field "$TMP/b.json" arena)" ]; then ok
        else bad "gen packing: plan of the graph and place of the CSV differ ($s)"; fi
    done
    for n in 1 2 300; do
        run "$M" gen packing -n "$n" --format csv
        expect_rc 0 "gen packing -n $n"
        if [ "$(($(wc -l <"$OUT") - 1))" = "$n" ]; then ok; else bad "gen packing -n $n: $n rows"; fi
    done
    # usage errors
    run "$M" gen packing -n 0
    expect_rc 2 "gen packing -n 0"
    run "$M" gen packing -c 0
    expect_rc 2 "gen packing -c 0"
    expect_grep "$ERR" "--capacity wants an integer from 1 to 2^53-1, not '0'" "-c 0: said"
    run "$M" gen packing -c 9007199254740992
    expect_rc 2 "gen packing -c 2^53"
    run "$M" gen packing --format text
    expect_rc 2 "gen packing --format text"
    run "$M" gen chain --format csv
    expect_rc 2 "gen chain --format csv"
    expect_grep "$ERR" "--format is for kind 'packing' only" "--format: packing's"
    run "$M" gen nope
    expect_grep "$ERR" "randwire, train, packing" "the kinds listed, packing last"
}

# MiniMalloc's challenging set (150-450 buffers): place --placer best
# completes, every plan checked, each a valid plan by the CSV's own check.
# --capacity: MiniMalloc's question. Fits: the plan, status 0, the capacity
# said; below the bound: status 1, proven; unknown at a limit: status 1.
group_capacity() {
    local miss="$SRC/tests/data/best-misses.csv" # optimum 728, best's greedy 752
    run "$M" place --placer exact --capacity 728 -f json "$miss"
    expect_rc 0 "the optimum fits"
    expect_grep "$OUT" '"arena": 728,' "... in exactly that"
    expect_grep "$OUT" '"capacity": 728, "fits": true' "... and says so"
    run "$M" place --placer exact --capacity 740 -f text "$miss"
    expect_grep "$OUT" "capacity       740 B (740 bytes): the plan fits" "text: the capacity"
    run "$M" place --placer exact --capacity 727 "$miss"
    expect_rc 1 "below the bound: does not fit"
    expect_grep "$ERR" "no plan fits in 727 bytes: proven, every plan of this schedule takes at least 728 bytes" "... proven"
    expect_empty "$OUT" "... and no plan written"
    run "$M" place --placer exact --capacity 740 --max-states 1 "$miss"
    expect_rc 1 "a search stopped at once: not known"
    expect_grep "$ERR" "not known whether a plan fits in 740 bytes: placer exact's smallest takes 752 bytes, the bound is 728 (the search stopped: limit)" "... says so"
    run "$M" place --placer best --capacity 740 --max-states 1 "$miss"
    expect_rc 1 "best: not known"
    expect_grep "$ERR" "not known whether a plan fits in 740 bytes: placer best's smallest takes 752 bytes" "... best's greedy plan"
    run "$M" place --placer best --capacity 740 "$miss"
    expect_rc 0 "best's bounded search: it fits"
    run "$M" place --placer exact --capacity 0 "$miss"
    expect_rc 2 "--capacity 0: a usage error"
    run "$M" plan "$SRC/samples/demo.json" --placer exact --capacity 1GiB -f json
    expect_rc 0 "plan --capacity"
    expect_grep "$OUT" '"fits": true' "plan says it fits"
}

# forms DATA X: tests/data/DATA.csv in $TMP as X.csv, X.json (the chain
# graph) and X.steps.csv (each start and end at its own time)
forms() {
    cp "$SRC/tests/data/$1.csv" "$TMP/$2.csv"
    python3 "$SRC/bench/minimalloc2json.py" "$TMP/$2.csv" "$TMP/$2.json"
    "$M" plan "$TMP/$2.json" --placer first-fit --align 1 -f minimalloc -o "$TMP/$2.steps.csv"
}

# One problem in its three forms: MiniMalloc's times, one event a time step
# (what plan -f minimalloc writes) and the chain graph (no times). Exact's
# search runs on canonical lifetimes: the same arena and the same proof in
# each; the forms without times of their own search identically (the same
# nodes and capacities), a CSV's own times add orders of their own.
group_forms() {
    forms best-misses f # best's greedy misses: exact searches
    run "$M" place --placer exact -f json --time-limit 60 "$TMP/f.csv"
    local a1 p1 a2 p2 a3 p3
    a1=$(json_field "$OUT" arena)
    p1=$(grep -c '"proven_optimal": true' "$OUT")
    run "$M" place --placer exact -f json --time-limit 60 "$TMP/f.steps.csv"
    a2=$(json_field "$OUT" arena)
    p2=$(grep -c '"proven_optimal": true' "$OUT")
    run "$M" plan "$TMP/f.json" --placer exact --align 1 -f json --time-limit 60
    a3=$(json_field "$OUT" arena)
    p3=$(grep -c '"proven_optimal": true' "$OUT")
    if [ -n "$a1" ] && [ "$a1" = "$a2" ] && [ "$a2" = "$a3" ]; then ok; else bad "arenas $a1 $a2 $a3 differ"; fi
    if [ "$p1$p2$p3" = 111 ]; then ok; else bad "proofs $p1 $p2 $p3 differ"; fi
    # the chain graph, and the same chain with a compute node after every
    # event (other steps, the same order of starts and ends): one search
    python3 -c '
import json, sys
g = json.load(open(sys.argv[1]))
nodes, n = [], len(g["Nodes"])
for v in g["Nodes"]:
    nodes.append(dict(v, Id=2 * v["Id"]))
    nodes.append({"Id": 2 * v["Id"] + 1, "Op": "Compute", "Name": "step"})
edges = [[k, k + 1] for k in range(2 * n - 1)]
json.dump({"Nodes": nodes, "Edges": edges}, open(sys.argv[2], "w"))' "$TMP/f.json" "$TMP/f.spread.json"
    run "$M" plan "$TMP/f.spread.json" --placer exact --align 1 -f json --max-states 100
    local s1 s2
    s1=$(sed -n 's/.*"arena": \([0-9]*\),.*"search": \({[^}]*}\).*/\1 \2/p' "$OUT")
    run "$M" plan "$TMP/f.json" --placer exact --align 1 -f json --max-states 100
    s2=$(sed -n 's/.*"arena": \([0-9]*\),.*"search": \({[^}]*}\).*/\1 \2/p' "$OUT")
    if [ -n "$s1" ] && [ "$s1" = "$s2" ]; then ok; else bad "one problem, two searches: '$s1' / '$s2'"; fi
    # MiniMalloc's E one event a step and as the chain graph: the same
    # canonical problem (buffers, order, lifetimes, sizes), so the same
    # search, node for node and probe for probe, stopped at the same place
    forms minimalloc-E E
    run "$M" place "$TMP/E.steps.csv" --placer exact --align 1 -f json --max-states 3000
    s1=$(sed -n 's/.*"arena": \([0-9]*\),.*"search": \({[^}]*}\).*/\1 \2/p' "$OUT")
    run "$M" plan "$TMP/E.json" --placer exact --align 1 -f json --max-states 3000
    s2=$(sed -n 's/.*"arena": \([0-9]*\),.*"search": \({[^}]*}\).*/\1 \2/p' "$OUT")
    if [ -n "$s1" ] && [ "$s1" = "$s2" ]; then ok; else bad "E: steps '$s1', graph '$s2'"; fi
}

# MiniMalloc's E (tests/data/minimalloc-E.csv, 1048576 bytes at most): its
# three canonical orders find no plan in the steps and graph forms (nothing in
# 200000 nodes), where only the CSV's own times tell which buffers live long;
# TWs, TWN and TWO fit it in each form, and the minimising search proves
# 1048576 in each (node limits: a slow machine answers the same). MiniMalloc's
# G (tests/data/minimalloc-G.csv) likewise: in the steps and graph forms TWs
# needs 762035 nodes, TWs in the dynamic order (TWs+) 323.
group_forms_tight() {
    local x f cmd lim=(--time-limit 600 -f json)
    for x in E G; do
        forms "minimalloc-$x" "$x"
        for f in $x.csv $x.steps.csv $x.json; do
            cmd=(place "$TMP/$f")
            [ "$f" = $x.json ] && cmd=(plan "$TMP/$f" --align 1)
            run "$M" "${cmd[@]}" --placer exact --capacity 1048576 --max-states 100000 "${lim[@]}"
            if [ "$rc" = 0 ] && grep -q '"fits": true' "$OUT"; then ok; else bad "$f: no plan in 1048576"; fi
            run "$M" "${cmd[@]}" --placer exact --max-states 200000 "${lim[@]}"
            if [ "$(json_field "$OUT" arena)" = 1048576 ] && grep -q '"proven_optimal": true' "$OUT"; then
                ok
            else
                bad "$f: not proven at 1048576"
            fi
            # best within 5% of the optimum in every form (issue 24 item 3;
            # E as a chain of events took 1153024 when best's bounded search
            # probed the bound in TWA alone): its limits are work, not time
            local a1=()
            [ "$f" = $x.json ] || a1=(--align 1)
            run "$M" "${cmd[@]}" "${a1[@]}" --placer best -f json
            if [ "$rc" = 0 ] && [ "$(json_field "$OUT" arena)" -le 1101004 ]; then
                ok
            else
                bad "$f: best's arena $(json_field "$OUT" arena) over 1048576 + 5%"
            fi
        done
    done
    # MiniMalloc's I (tests/data/minimalloc-I.csv) fits 1048576 in every
    # form: as a chain of events only TXW's order (the live bytes a lifetime
    # crosses) finds it, 83533 nodes (before: no plan in 60 s; the CSV's own
    # times, TVB, in 1791)
    forms minimalloc-I I
    for f in I.csv I.steps.csv I.json; do
        cmd=(place "$TMP/$f")
        [ "$f" = I.json ] && cmd=(plan "$TMP/$f")
        run "$M" "${cmd[@]}" --align 1 --placer exact --capacity 1048576 --max-states 100000 "${lim[@]}"
        if [ "$rc" = 0 ] && grep -q '"fits": true' "$OUT"; then ok; else bad "$f: no plan in 1048576"; fi
        # best within 5% in every form (as events: 1167360, +11.3%, before
        # its bounded search probed the bound in TXW too)
        run "$M" "${cmd[@]}" --align 1 --placer best -f json
        if [ "$rc" = 0 ] && [ "$(json_field "$OUT" arena)" -le 1101004 ]; then
            ok
        else
            bad "$f: best's arena $(json_field "$OUT" arena) over 1048576 + 5%"
        fi
    done
    # MiniMalloc's J as a chain of events (tests/data/minimalloc-J.csv): best
    # within 2% (1055744; 1092608 when its capacity search spent a sixth of
    # its work on capacities a few bytes below its plan)
    forms minimalloc-J J
    run "$M" place "$TMP/J.steps.csv" --align 1 --placer best -f json
    if [ "$rc" = 0 ] && [ "$(json_field "$OUT" arena)" -le 1069547 ]; then
        ok
    else
        bad "J.steps.csv: best's arena $(json_field "$OUT" arena) over 1048576 + 2%"
    fi
}

group_benchmarks() {
    local f count=0
    for f in "$BENCH"/*.csv; do
        [ -f "$f" ] || continue
        count=$((count + 1))
        run "$M" place --placer best "$f"
        expect_rc 0 "place --placer best $(basename "$f")"
        py "$(basename "$f"): a valid plan of the same rows" "$CHECK_CSV" "$OUT" "$f"
    done
    if [ "$count" = 0 ]; then echo "SKIP (part): needs MiniMalloc's benchmarks: none in $BENCH"; fi
}

run_groups
