#!/usr/bin/env bash
# test_replay_cli.sh: end-to-end checks of "memtris replay" on the host backend
# (text, JSON and CSV against 'memtris schedule', every mode, the cuda backend
# and the fallback from it, out of memory, -o, the measured curve).
# Usage: test_replay_cli.sh MEMTRIS SOURCE_DIR [GROUP]   (GROUP: one of the
# groups below; all of them when omitted). Needs python3. Prints "N passed, M failed" last.
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 MEMTRIS SOURCE_DIR [GROUP]" >&2
    exit 2
fi
M=$1
SRC=$2
GROUP=${3:-all}
DATA=$SRC/tests/data
BRANCHES=$DATA/branches.json
DEMO=$SRC/samples/demo.json
. "$(dirname "$0")/clilib.sh" replay

# A 1 MiB buffer, then one of 2^52 bytes (4 PiB) while it is live: no device
# has that, so step 1 (node 1, buffer 2) runs out of memory.
OOM=$TMP/oom.json
cat >"$OOM" <<'EOF'
{"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 1048576, "BufId": 1},
           {"Id": 1, "Op": "ALLOC", "Size": 4503599627370496, "BufId": 2},
           {"Id": 2, "Op": "Matmul", "Inputs": [1, 2]},
           {"Id": 3, "Op": "FREE", "BufId": 2},
           {"Id": 4, "Op": "FREE", "BufId": 1}],
 "Edges": [[0, 2], [1, 2], [2, 3], [2, 4]]}
EOF

# Big buffers (4 to 16 MiB, several live at once, a compute step writing
# them between the ALLOCs and the FREEs), for the measured curve.
BIG=$TMP/big.json
python3 - "$BIG" <<'EOF'
import json, sys
MiB = 1 << 20
sizes = [4, 16, 6, 12, 8, 10, 5, 14]
nodes, edges, nid = [], [], 0
prev = None
for i, s in enumerate(sizes):
    a, c = nid, nid + 1
    nodes.append({"Id": a, "Op": "ALLOC", "Size": s * MiB, "BufId": i + 1, "Name": "b%d" % i})
    nodes.append({"Id": c, "Op": "Conv", "Inputs": [i + 1] + ([i] if i else [])})
    edges.append([a, c])
    if prev is not None:
        edges.append([prev[1], c])
        # the previous buffer lives until this op has read it
        nodes.append({"Id": nid + 2, "Op": "FREE", "BufId": i})
        edges.append([c, nid + 2])
        nid += 1
    prev = (a, c)
    nid += 2
nodes.append({"Id": nid, "Op": "FREE", "BufId": len(sizes)})
edges.append([prev[1], nid])
json.dump({"Nodes": nodes, "Edges": edges}, open(sys.argv[1], "w"))
EOF

# usage_error DESC CMD...: status 2, a message on stderr, nothing on stdout.
usage_error() {
    local desc=$1
    shift
    run "$@"
    expect_rc 2 "$desc"
    expect_empty "$OUT" "$desc (stdout)"
    expect_nonempty "$ERR" "$desc (message on stderr)"
    expect_grep "$ERR" "Try 'memtris replay --help'" "$desc (usage hint)"
}

# py DESC SCRIPT ARGS...: runs python3 on SCRIPT (a string) with ARGS; a check.
py() {
    local desc=$1 script=$2
    shift 2
    if python3 -c "$script" "$@" >"$TMP/py.out" 2>&1; then ok
    else bad "$desc: $(tail -c 400 "$TMP/py.out")"; fi
}

# The checks every replay JSON must pass against the schedule of its policy:
# argv: REPLAY.json SCHEDULE.json BACKEND MODE
CHECK_REPLAY='
import json, sys
d = json.load(open(sys.argv[1]))
sched = json.load(open(sys.argv[2]))
backend, mode = sys.argv[3], sys.argv[4]
keys = ["backend", "mode", "policy", "placer", "device", "device_total", "versions", "steps",
        "predicted_peak", "predicted_peak_step", "measured_peak", "measured_peak_step",
        "max_excess", "max_excess_step", "baseline", "residual", "held", "seconds",
        "complete", "total_steps"]
if mode != "arena":
    keys.remove("placer")
assert list(d) == keys, list(d)
assert d["backend"] == backend and d["mode"] == mode, (d["backend"], d["mode"])
assert d["policy"] == sched["policy"]
for k in ("device", "versions"):
    assert isinstance(d[k], str), k
for k in ("device_total", "predicted_peak", "predicted_peak_step", "measured_peak", "measured_peak_step",
          "max_excess", "max_excess_step", "baseline", "residual", "held", "total_steps"):
    assert type(d[k]) is int, k
assert d["device_total"] > 0
steps = d["steps"]
n = len(sched["order"])
assert d["total_steps"] == n == len(steps), (d["total_steps"], n, len(steps))
assert d["complete"] is True
for i, s in enumerate(steps):
    assert list(s) == ["step", "node", "predicted", "measured", "ms"], list(s)
    assert s["step"] == i + 1, s
    assert s["node"] == sched["order"][i], (i, s, sched["order"][i])
    assert s["predicted"] == sched["memory"][i], (i, s, sched["memory"][i])
    assert type(s["measured"]) is int, s
    assert isinstance(s["ms"], (int, float)) and s["ms"] >= 0, s
if n:
    pp = max(s["predicted"] for s in steps)
    assert d["predicted_peak"] == max(pp, 0) == sched["peak"], (d["predicted_peak"], sched["peak"])
    assert steps[d["predicted_peak_step"] - 1]["predicted"] == pp
    assert [s["predicted"] for s in steps].index(pp) + 1 == d["predicted_peak_step"] == sched["memory"].index(sched["peak"]) + 1
    mp = max(s["measured"] for s in steps)
    assert d["measured_peak"] == max(mp, 0), (d["measured_peak"], mp)
    ex = [s["measured"] - s["predicted"] for s in steps]
    assert d["max_excess"] == max(ex) and ex.index(max(ex)) + 1 == d["max_excess_step"], d["max_excess"]
    assert abs(d["seconds"] - sum(s["ms"] for s in steps) / 1e3) <= 1e-5 * d["seconds"] + 1e-9
assert d["held"] >= 0
if mode == "raw":
    assert d["held"] == 0
'

# check_replay DESC GRAPH POLICY MODE [OPTION...]: replay --format json on the
# host against schedule --format json.
check_replay() {
    local desc=$1 graph=$2 policy=$3 mode=$4
    shift 4
    "$M" replay "$graph" --backend host --policy "$policy" --mode "$mode" --format json "$@" >"$TMP/replay.json" 2>"$ERR"
    rc=$?
    expect_rc 0 "$desc"
    expect_empty "$ERR" "$desc (stderr)"
    "$M" schedule "$graph" --policy "$policy" --format json >"$TMP/sched.json" 2>/dev/null
    py "$desc: the replay follows the schedule" "$CHECK_REPLAY" "$TMP/replay.json" "$TMP/sched.json" host "$mode"
}

# ------------------------------------------------------------------ groups

group_help() {
    local opt
    for opt in --help -h; do
        run "$M" replay "$opt"
        expect_rc 0 "memtris replay $opt"
        expect_grep "$OUT" "Usage: memtris replay FILE" "replay $opt: usage on stdout"
        expect_grep "$OUT" "--backend" "replay $opt: --backend"
        expect_grep "$OUT" "--mode" "replay $opt: --mode"
        expect_grep "$OUT" "Steps count from 1, as in 'memtris schedule'" "replay $opt: steps count from 1"
        expect_grep "$OUT" "\"measured_peak\"" "replay $opt: the JSON fields"
        expect_grep "$OUT" "step,node,predicted,measured,ms" "replay $opt: the CSV header"
        expect_grep "$OUT" "residual is null when" "replay $opt: an unknown residual is null"
        expect_empty "$ERR" "replay $opt (stderr)"
        run "$M" "$opt"
        expect_grep "$OUT" "replay FILE" "memtris $opt lists replay"
    done
    for opt in --version -V; do
        run "$M" replay "$opt"
        expect_rc 0 "memtris replay $opt"
        if grep -qE '^memtris [0-9]+\.[0-9]+' "$OUT"; then ok; else bad "memtris replay $opt prints 'memtris X.Y'"; fi
    done
}

group_formats() {
    local pol g
    for g in "$DEMO" "$BRANCHES" "$BIG"; do
        for pol in priority fifo; do
            check_replay "replay $(basename "$g") --policy $pol --format json" "$g" "$pol" raw
        done
    done
    # The default policy is priority, the default mode raw.
    "$M" replay "$DEMO" --backend host --format json >"$TMP/default.json" 2>"$ERR"
    py "the defaults: priority, raw" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["policy"] == "priority" and d["mode"] == "raw" and "placer" not in d, d["policy"]
' "$TMP/default.json"

    # CSV: the same steps as the JSON.
    "$M" replay "$DEMO" --backend host --format json >"$TMP/demo.json"
    run "$M" replay "$DEMO" --backend host --format csv
    expect_rc 0 "replay --format csv"
    expect_empty "$ERR" "replay --format csv (stderr)"
    if [ "$(head -1 "$OUT")" = "step,node,predicted,measured,ms" ]; then ok; else bad "csv header"; fi
    "$M" schedule "$DEMO" --format json >"$TMP/sched.json"
    py "csv rows: one per step, the schedule's nodes and predicted bytes" '
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sched = json.load(open(sys.argv[2]))
assert len(rows) == len(sched["order"]) == 61, len(rows)
for i, r in enumerate(rows):
    assert int(r["step"]) == i + 1, r
    assert int(r["node"]) == sched["order"][i], r
    assert int(r["predicted"]) == sched["memory"][i], r
    int(r["measured"])
    assert float(r["ms"]) >= 0, r
' "$OUT" "$TMP/sched.json"

    # Text: the header, a line per step, the summary.
    run "$M" replay "$DEMO" --backend host
    expect_rc 0 "replay text"
    expect_empty "$ERR" "replay text (stderr)"
    expect_grep "$OUT" "$DEMO: policy priority, backend host, mode raw; 61 steps" "text: the header line"
    expect_grep "$OUT" "device         host: " "text: the device"
    expect_grep "$OUT" "memory         " "text: the device's memory"
    expect_grep "$OUT" "versions       " "text: the versions"
    if grep -qE '^ +step +node +what +predicted +measured +measured-predicted +ms$' "$OUT"; then ok
    else bad "text: the table's header"; fi
    if [ "$(grep -cE '^ +[0-9]+ +[0-9]+ ' "$OUT")" -eq 61 ]; then ok; else bad "text: 61 step lines"; fi
    if grep -qE '^ +1 +0 +ALLOC buf 1 +1\.0 MiB ' "$OUT"; then ok; else bad "text: step 1 is node 0, ALLOC of buffer 1, 1.0 MiB"; fi
    if grep -qE '^ +4 +3 +stem\.conv +3\.0 MiB ' "$OUT"; then ok; else bad "text: a compute step by its name"; fi
    # One numbering: the replay's peak step is the schedule's (and compare's).
    local peak_step
    peak_step=$("$M" schedule "$DEMO" | sed -n 's/^peak .* at step \([0-9]*\) .*/\1/p')
    expect_grep "$OUT" "predicted peak   7.0 MiB (7340032 bytes) at step $peak_step" "text: the predicted peak, at the schedule's step"
    if "$M" compare "$DEMO" | grep -qE "^priority +7\.0 MiB +$peak_step "; then ok
    else bad "compare names the same peak step ($peak_step)"; fi
    expect_grep "$OUT" "measured peak    " "text: the measured peak"
    expect_grep "$OUT" "largest excess   " "text: the largest excess"
    expect_grep "$OUT" "residual         " "text: the residual"
    if grep -qE '^  residual         .* \(-?[0-9]+ bytes\) in use after giving everything back$' "$OUT"; then ok
    else bad "text: the residual, read, in bytes"; fi
    expect_grep "$OUT" "ms a step on average" "text: the time per step"
    expect_grep "$OUT" "Step s: after the s-th node of the schedule" "text: says how steps count"
    if grep -q "held" "$OUT"; then bad "text: no held line in raw mode"; else ok; fi

    # Standard input.
    "$M" replay - --backend host --format json <"$BRANCHES" >"$OUT" 2>"$ERR"
    rc=$?
    expect_rc 0 "replay - < file"
    expect_grep "$OUT" '"total_steps": 11' "replay from standard input"
}

group_modes() {
    local pol
    for pol in priority fifo; do
        check_replay "replay --mode raw --policy $pol" "$DEMO" "$pol" raw
        check_replay "replay --mode pool --policy $pol" "$DEMO" "$pol" pool
        check_replay "replay --mode arena --policy $pol" "$DEMO" "$pol" arena
        # The arena is the plan's, by the default placer best.
        "$M" plan "$DEMO" --policy "$pol" --format json >"$TMP/plan.json"
        py "arena mode, $pol: held is the plan's arena, placer best" '
import json, sys
d, plan = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert d["placer"] == "best" == plan["placer"], d["placer"]
assert d["held"] == plan["arena"], (d["held"], plan["arena"])
# The whole arena is taken at the first step and kept: nothing measured is
# far below it.
assert all(s["measured"] >= plan["arena"] - (1 << 20) for s in d["steps"]), [s["measured"] for s in d["steps"]][:5]
' "$TMP/replay.json" "$TMP/plan.json"
    done
    check_replay "replay --mode arena --placer first-fit" "$DEMO" priority arena --placer first-fit
    "$M" plan "$DEMO" --placer first-fit --format json >"$TMP/plan.json"
    py "arena mode, first-fit: its arena" '
import json, sys
d, plan = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert d["placer"] == "first-fit" and d["held"] == plan["arena"], (d["placer"], d["held"], plan["arena"])
' "$TMP/replay.json" "$TMP/plan.json"
    # The pool keeps its 2^n blocks: it holds at least the peak, rounded up.
    "$M" replay "$DEMO" --backend host --mode pool --format json >"$TMP/pool.json"
    py "pool mode: held covers the peak and is made of powers of two" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["held"] >= d["predicted_peak"] > 0, (d["held"], d["predicted_peak"])
' "$TMP/pool.json"
    run "$M" replay "$DEMO" --backend host --mode arena
    expect_rc 0 "replay --mode arena text"
    expect_grep "$OUT" "mode arena" "arena text: the mode"
    expect_grep "$OUT" "placed by best" "arena text: the placer"
    expect_grep "$OUT" "held             " "arena text: the bytes held"
    run "$M" replay "$DEMO" --backend host --mode pool
    expect_grep "$OUT" "held             " "pool text: the bytes held"

    # The host has no async mode; an explicit --placer needs arena mode.
    usage_error "replay --backend host --mode async" "$M" replay "$DEMO" --backend host --mode async
    expect_grep "$ERR" "the host backend has no async mode (it has raw, arena, pool)" "async on the host: the message"
    usage_error "replay --mode raw --placer best" "$M" replay "$DEMO" --backend host --placer best
    expect_grep "$ERR" "--placer applies to --mode arena" "--placer without arena: the message"
    usage_error "replay --mode pool --placer best" "$M" replay "$DEMO" --backend host --mode pool --placer best
    usage_error "replay --mode arena --placer nope" "$M" replay "$DEMO" --backend host --mode arena --placer nope
    expect_grep "$ERR" "'nope'" "unknown placer named"
    usage_error "replay --mode turbo" "$M" replay "$DEMO" --backend host --mode turbo
    expect_grep "$ERR" "unknown mode 'turbo' (raw, arena, pool, async)" "unknown mode: the known ones"
}

group_backends() {
    # --backend cuda: this machine may have no GPU, driver or CUDA build; then
    # status 1 and one line saying why. Where it runs, it is a cuda replay.
    run "$M" replay "$BRANCHES" --backend cuda --format json
    if [ "$rc" -eq 0 ]; then
        expect_grep "$OUT" '"backend": "cuda"' "--backend cuda ran on a device"
    else
        expect_rc 1 "--backend cuda without a device"
        expect_empty "$OUT" "--backend cuda without a device (stdout)"
        if [ "$(wc -l <"$ERR")" -eq 1 ]; then ok; else bad "--backend cuda: one line on stderr"; fi
        expect_grep "$ERR" "memtris replay: cuda backend: " "--backend cuda: the backend is named"
        if grep -qE 'built without CUDA support|CUDA|cuda[A-Z]' "$ERR"; then ok; else bad "--backend cuda: says why"; fi
        echo "SKIP (part): needs a CUDA device: --backend cuda is checked to refuse (scripts/gpu-check runs it on one)"
    fi
    # No --backend: cuda where it works, else the host, saying why in one line
    # when this build has CUDA.
    run "$M" replay "$BRANCHES" --format json
    expect_rc 0 "the default backend"
    if grep -q '"backend": "host"' "$OUT"; then
        ok
        if [ -s "$ERR" ]; then
            if [ "$(wc -l <"$ERR")" -eq 1 ]; then ok; else bad "the fallback: one line on stderr"; fi
            expect_grep "$ERR" "memtris: cannot use CUDA (" "the fallback names the reason"
            expect_grep "$ERR" "); replaying on the host" "the fallback says it replays on the host"
        fi
    else
        expect_grep "$OUT" '"backend": "cuda"' "the default backend is cuda or host"
    fi
    "$M" schedule "$BRANCHES" --format json >"$TMP/sched.json"
    cp "$OUT" "$TMP/default.json"
    py "the default backend's replay follows the schedule" "$CHECK_REPLAY" "$TMP/default.json" "$TMP/sched.json" \
        "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["backend"])' "$TMP/default.json")" raw
    # Unknown backends.
    usage_error "replay --backend gpu" "$M" replay "$BRANCHES" --backend gpu
    expect_grep "$ERR" "unknown backend 'gpu' (cuda, host)" "unknown backend: the known ones"
    usage_error "replay --backend ''" "$M" replay "$BRANCHES" --backend ""
}

group_errors() {
    # Out of memory: the step, the node, the buffer; nothing on stdout.
    local mode
    for mode in raw pool; do
        run "$M" replay "$OOM" --backend host --mode "$mode"
        expect_rc 1 "replay --mode $mode of a 4 PiB buffer"
        expect_empty "$OUT" "out of memory, $mode: no partial table"
        if [ "$(wc -l <"$ERR")" -eq 1 ]; then ok; else bad "out of memory, $mode: one line"; fi
        expect_grep "$ERR" "memtris replay: $OOM: " "out of memory, $mode: the file"
        expect_grep "$ERR" "step 2 (node 1, ALLOC of buffer 2)" "out of memory, $mode: the step, node and buffer"
        expect_grep "$ERR" "out of memory" "out of memory, $mode: says so"
        expect_grep "$ERR" "4.0 PiB" "out of memory, $mode: the request"
    done
    for fmt in json csv; do
        run "$M" replay "$OOM" --backend host --format "$fmt"
        expect_rc 1 "out of memory --format $fmt"
        expect_empty "$OUT" "out of memory --format $fmt: nothing printed"
    done
    run "$M" replay "$OOM" --backend host --mode arena
    expect_rc 1 "replay --mode arena of a 4 PiB buffer"
    expect_grep "$ERR" "out of memory" "out of memory in arena mode"
    # The default backend meets it too (on cuda or on the host).
    run "$M" replay "$OOM"
    expect_rc 1 "out of memory on the default backend"
    expect_grep "$ERR" "step 2 (node 1, ALLOC of buffer 2)" "out of memory on the default backend: the step"

    # Bad files.
    run "$M" replay "$TMP/no-such-file.json" --backend host
    expect_rc 1 "replay of a missing file"
    expect_grep "$ERR" "no-such-file.json" "the missing file is named"
    expect_empty "$OUT" "missing file (stdout)"
    run "$M" replay "$DATA/bad-line3.json" --backend host
    expect_rc 1 "replay of invalid JSON"
    expect_grep "$ERR" "$DATA/bad-line3.json:3:19: error:" "invalid JSON: FILE:LINE:COL"
    printf '{"Nodes": [{"Id": 1, "Op": "X"}, {"Id": 2, "Op": "X"}], "Edges": [[1, 2], [2, 1]]}' >"$TMP/cycle.json"
    run "$M" replay "$TMP/cycle.json" --backend host
    expect_rc 1 "replay of a cyclic graph"

    # Usage.
    usage_error "replay without FILE" "$M" replay
    usage_error "replay with two FILEs" "$M" replay "$BRANCHES" "$BRANCHES"
    usage_error "replay with an unknown short option" "$M" replay -Z "$BRANCHES"
    usage_error "replay with an unknown option" "$M" replay --bogus "$BRANCHES"
    expect_grep "$ERR" "--bogus" "the unknown option is named"
    usage_error "replay option without its value" "$M" replay "$BRANCHES" --mode
    usage_error "replay --format xml" "$M" replay "$BRANCHES" --backend host --format xml
    expect_grep "$ERR" "unknown format 'xml' (text, json or csv)" "unknown format: the known ones"
    run "$M" replay "$BRANCHES" --backend host --policy nope
    expect_rc 2 "replay --policy nope"
    expect_grep "$ERR" "unknown policy 'nope'" "unknown policy: named"
    expect_empty "$OUT" "replay --policy nope (stdout)"
    usage_error "replay -o ''" "$M" replay "$BRANCHES" --backend host -o ""
}

group_output() {
    local fmt
    for fmt in text json csv; do
        run "$M" replay "$DEMO" --backend host --format "$fmt" -o "$TMP/o.$fmt"
        expect_rc 0 "-o with --format $fmt"
        expect_empty "$OUT" "-o with --format $fmt: nothing on stdout"
        expect_nonempty "$TMP/o.$fmt" "-o with --format $fmt: the file"
    done
    expect_grep "$TMP/o.text" "predicted peak" "-o text: the summary"
    if [ "$(head -1 "$TMP/o.csv")" = "step,node,predicted,measured,ms" ]; then ok; else bad "-o csv: the header"; fi
    "$M" schedule "$DEMO" --format json >"$TMP/sched.json"
    py "-o json: a saved replay" "$CHECK_REPLAY" "$TMP/o.json" "$TMP/sched.json" host raw
    # --output, and - for standard output.
    run "$M" replay "$BRANCHES" --backend host --format json --output "$TMP/long.json"
    expect_rc 0 "--output"
    expect_grep "$TMP/long.json" '"total_steps": 11' "--output writes the replay"
    run "$M" replay "$BRANCHES" --backend host --format json -o -
    expect_rc 0 "-o -"
    expect_grep "$OUT" '"total_steps": 11' "-o - writes to standard output"
    # An existing file is replaced.
    echo "old contents" >"$TMP/old.json"
    run "$M" replay "$BRANCHES" --backend host --format json -o "$TMP/old.json"
    if grep -q "old contents" "$TMP/old.json"; then bad "-o replaces the file"; else ok; fi
    # A file that cannot be written: status 1, the path named.
    run "$M" replay "$BRANCHES" --backend host -o "$TMP/no/such/dir/r.txt"
    expect_rc 1 "-o into a missing directory"
    expect_grep "$ERR" "$TMP/no/such/dir/r.txt" "-o: the path is named"
    expect_empty "$OUT" "-o into a missing directory (stdout)"
    # A write error on a device: status 1, the device left alone.
    if [ -c /dev/full ] && [ -w /dev/full ]; then
        run "$M" replay "$BRANCHES" --backend host -o /dev/full
        expect_rc 1 "-o /dev/full"
        expect_grep "$ERR" "error writing '/dev/full'" "-o /dev/full: the device is named"
        if [ -c /dev/full ]; then ok; else bad "-o /dev/full removed the device"; fi
    fi
    # A failed replay writes no file.
    run "$M" replay "$OOM" --backend host --format json -o "$TMP/oom-out.json"
    expect_rc 1 "-o with a failing replay"
    if [ -e "$TMP/oom-out.json" ]; then bad "a failed replay leaves no -o file"; else ok; fi
}

group_curve() {
    # The host backend touches every page of a buffer at its ALLOC and reads
    # the resident memory: the measured curve follows the predicted one. In a
    # sanitizer build the resident memory also holds the sanitizer's own
    # pages (the shadow of every page touched, kept after it is unmapped; the
    # fuzz build's coverage counters): nothing to compare there.
    if [ -n "${MEMTRIS_TEST_SANITIZER:-}" ]; then
        echo "SKIP (part): needs a build without sanitizers: the measured curve (this ${MEMTRIS_TEST_SANITIZER} build's resident memory holds the sanitizer's own pages)"
        return
    fi
    local pol
    for pol in priority fifo; do
        check_replay "replay of 4-16 MiB buffers, $pol" "$BIG" "$pol" raw
        py "the measured curve follows the predicted one ($pol)" '
import json, sys
d = json.load(open(sys.argv[1]))
g = json.load(open(sys.argv[2]))
MiB, KiB = 1 << 20, 1 << 10
nodes = {n["Id"]: n for n in g["Nodes"]}
live = 0
worst = []
for s in d["steps"]:
    op = nodes[s["node"]]["Op"]
    live += op == "ALLOC"
    live -= op == "FREE"
    tol = MiB + 64 * KiB * max(live, 1)
    diff = s["measured"] - s["predicted"]
    assert abs(diff) <= tol, ("step", s["step"], "measured", s["measured"], "predicted", s["predicted"], tol)
assert d["predicted_peak"] >= 28 * MiB, d["predicted_peak"]
assert abs(d["measured_peak"] - d["predicted_peak"]) <= 2 * MiB, (d["measured_peak"], d["predicted_peak"])
last = d["steps"][-1]
assert last["predicted"] == 0 and abs(last["measured"]) < MiB, last
assert abs(d["residual"]) < MiB, d["residual"]
' "$TMP/replay.json" "$BIG"
    done
    # Arena mode: the arena is taken whole at the first step and kept.
    check_replay "arena replay of 4-16 MiB buffers" "$BIG" priority arena
    py "arena mode: measured is the arena throughout, then given back" '
import json, sys
d = json.load(open(sys.argv[1]))
MiB = 1 << 20
for s in d["steps"]:
    assert abs(s["measured"] - d["held"]) <= 2 * MiB, (s, d["held"])
assert abs(d["residual"]) < MiB, d["residual"]
' "$TMP/replay.json"
}

# ------------------------------------------------------------------ driver

run_groups
