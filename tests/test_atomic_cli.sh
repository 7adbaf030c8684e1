#!/usr/bin/env bash
# test_atomic_cli.sh: every output file is whole or absent. Each writer (gen,
# plan in every format and --svg, place, compare --pareto --svg, budget -o and
# --sweep --svg, replay and iterate on the host backend, the Python tools)
# replaces an old file whole, its permissions kept; killed mid-write by
# SIGINT, SIGTERM or SIGHUP, or failing mid-write (file size limit, a full
# tmpfs), it leaves the old file byte-identical and no temporary file beside it;
# killed by SIGKILL, it leaves its temporary file, which the next writer of the
# same file removes (a live writer's kept).
# Usage: test_atomic_cli.sh MEMTRIS SRCDIR [GROUP]   (GROUP: replace, signals,
# stale, errors or tools; all of them when omitted). Prints "N passed, M failed" last.
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 MEMTRIS SRCDIR [GROUP]" >&2
    exit 2
fi
M=$1
SRC=$(cd "$2" && pwd)
GROUP=${3:-all}
DEMO=$SRC/samples/demo.json
. "$(dirname "$0")/clilib.sh" atomic

OLD="old content: not a plan, not a graph
"

# fresh DIR: DIR made anew with DIR/out holding $OLD, mode 600.
fresh() {
    rm -rf "$1"
    mkdir "$1"
    printf '%s' "$OLD" >"$1/out"
    chmod 600 "$1/out"
}

# expect_old DIR DESC: DIR/out is $OLD byte for byte; nothing else in DIR.
expect_old() {
    if [ "$(cat "$1/out")"$'\n' = "$OLD" ]; then ok; else bad "$2: the old file changed"; fi
    expect_alone "$1" "$2"
}

# expect_alone DIR DESC: DIR holds out alone (no temporary file left).
expect_alone() {
    local left
    left=$(ls -A "$1" | grep -vx out)
    if [ -z "$left" ]; then ok; else bad "$2: left behind: $left"; fi
}

# ------------------------------------------------------------------ groups

# replaced D DESC REF CMD...: runs CMD (writing D/out) over the old D/out;
# status 0, D/out byte-identical to REF (or any other text than the old one
# when REF is -), mode 600 kept, nothing else left in D.
replaced() {
    local d=$1 desc=$2 ref=$3
    shift 3
    fresh "$d"
    run "$@"
    expect_rc 0 "$desc"
    if [ "$ref" = - ]; then
        if [ -s "$d/out" ] && ! cmp -s "$d/out" <(printf '%s' "$OLD"); then ok
        else bad "$desc: the old file was not replaced"; fi
    else expect_same "$d/out" "$ref" "$desc (the whole new file)"; fi
    if [ "$(stat -c %a "$d/out")" = 600 ]; then ok; else bad "$desc: mode $(stat -c %a "$d/out"), not 600"; fi
    expect_alone "$d" "$desc"
}

group_replace() {
    local d=$TMP/r ref=$TMP/ref
    "$M" gen random --nodes 2000 --seed 3 >"$ref"
    replaced "$d" "gen -o" "$ref" "$M" gen random --nodes 2000 --seed 3 -o "$d/out"
    "$M" gen packing -n 300 --seed 5 --format csv >"$TMP/p.csv"
    replaced "$d" "gen packing -o" "$TMP/p.csv" "$M" gen packing -n 300 --seed 5 --format csv -o "$d/out"
    for f in text json csv minimalloc memory-viz; do
        "$M" plan "$DEMO" --placer first-fit -f "$f" >"$ref"
        replaced "$d" "plan -f $f -o" "$ref" "$M" plan "$DEMO" --placer first-fit -f "$f" -o "$d/out"
    done
    "$M" plan "$DEMO" --placer first-fit --svg - >"$ref"
    replaced "$d" "plan --svg" "$ref" "$M" plan "$DEMO" --placer first-fit --svg "$d/out"
    for f in csv json; do
        "$M" place "$TMP/p.csv" -f "$f" >"$ref" 2>/dev/null
        replaced "$d" "place -f $f -o" "$ref" "$M" place "$TMP/p.csv" -f "$f" -o "$d/out"
    done
    "$M" place "$TMP/p.csv" --svg - >"$ref" 2>/dev/null
    replaced "$d" "place --svg" "$ref" "$M" place "$TMP/p.csv" --svg "$d/out"
    "$M" compare "$DEMO" --pareto --svg - >"$ref"
    replaced "$d" "compare --pareto --svg" "$ref" "$M" compare "$DEMO" --pareto --svg "$d/out"
    # --max-states: best's search stops after as many states each run (the same plan, byte for
    # byte), not after 10 s of a clock (two of them each build, and the plan the clock allowed)
    "$M" budget "$SRC/samples/resnet18_train.json" --budget 80% --max-states 2000 -o - >"$ref"
    replaced "$d" "budget -o (the plan as a graph)" "$ref" "$M" budget \
        "$SRC/samples/resnet18_train.json" --budget 80% --max-states 2000 -o "$d/out"
    "$M" budget "$SRC/samples/resnet18_train.json" --sweep --points 4 --svg - >"$ref"
    replaced "$d" "budget --sweep --svg" "$ref" "$M" budget "$SRC/samples/resnet18_train.json" \
        --sweep --points 4 --svg "$d/out"
    # measured on this machine: a whole new file, not the same bytes each run
    replaced "$d" "replay -o (a saved replay)" - "$M" replay "$DEMO" --backend host --mode arena \
        -f json -o "$d/out"
    py "the saved replay is whole JSON" 'import json, sys; json.load(open(sys.argv[1]))' "$d/out"
    replaced "$d" "iterate -o" - "$M" iterate "$DEMO" --iterations 3 -f json -o "$d/out"
    py "iterate's output is whole JSON" 'import json, sys; json.load(open(sys.argv[1]))' "$d/out"
    # through a symbolic link: the file it names is replaced, the link kept
    fresh "$d"
    mv "$d/out" "$d/real"
    ln -s real "$d/out"
    run "$M" plan "$DEMO" --placer first-fit -f json -o "$d/out"
    "$M" plan "$DEMO" --placer first-fit -f json >"$ref"
    if [ -L "$d/out" ]; then ok; else bad "-o through a link: the link was replaced"; fi
    expect_same "$d/real" "$ref" "-o through a link writes the file it names"
    # devices and FIFOs are written in place, as before
    run "$M" plan "$DEMO" --placer first-fit -o /dev/null
    expect_rc 0 "-o /dev/null"
    if [ -c /dev/null ]; then ok; else bad "-o /dev/null: no longer a device"; fi
    rm -rf "$d" && mkdir "$d" && mkfifo "$d/fifo"
    cat "$d/fifo" >"$TMP/fifo.out" &
    run "$M" plan "$DEMO" --placer first-fit -f json -o "$d/fifo"
    wait
    expect_rc 0 "-o FIFO"
    expect_same "$TMP/fifo.out" "$ref" "-o FIFO: the plan read from it"
    if [ -p "$d/fifo" ]; then ok; else bad "-o FIFO: no longer a FIFO"; fi
    # a read-only old file is refused as before, and kept
    if [ "$(id -u)" -ne 0 ]; then
        fresh "$d"
        chmod 400 "$d/out"
        run "$M" plan "$DEMO" --placer first-fit -o "$d/out"
        expect_rc 1 "-o a read-only file"
        expect_grep "$ERR" "cannot open '$d/out' for writing: Permission denied" "read-only -o"
        expect_old "$d" "-o a read-only file"
    fi
}

# state PID: the state letter of process PID in $st (R, S, T, Z...; empty
# when gone), read without a fork.
state() {
    local line=
    st=
    { read -r line <"/proc/$1/stat"; } 2>/dev/null || return 0
    line=${line##*) }
    st=${line%% *}
}

# stop_writing PID DIR: waits until the writer PID has a temporary file
# (".out." and six characters) in DIR with bytes in it, so past its open,
# then stops it (SIGSTOP): status 0, the writer stopped and its file in
# $tmp; 1 when it ended first (polled without a fork).
stop_writing() {
    local pid=$1 d=$2 i tmps
    tmp=
    shopt -s nullglob
    for ((i = 0; i < 5000000; i++)); do
        tmps=("$d"/.out.??????)
        [ ${#tmps[@]} -gt 0 ] && [ -s "${tmps[0]}" ] && break
        state "$pid"
        [[ $st == [RSDT] ]] || break
    done
    shopt -u nullglob
    { [ ${#tmps[@]} -gt 0 ] && kill -STOP "$pid" 2>/dev/null; } || return 1
    for ((i = 0; i < 5000000; i++)); do
        state "$pid"
        [[ $st == [RSD] ]] || break
    done
    if [ "$st" = T ] && [ -e "${tmps[0]}" ]; then
        tmp=${tmps[0]}
        return 0
    fi
    kill -CONT "$pid"
    return 1
}

# killed SIG DESC CMD...: runs CMD (writing $TMP/k/out over the old one) in
# the background, stops it once its temporary file is there and still there,
# sends SIG: the process ends by SIG, the old file is byte-identical, no
# temporary file is left. A run that ends before it is caught is tried again.
killed() {
    local sig=$1 desc=$2 d=$TMP/k try pid caught=
    shift 2
    for ((try = 0; try < 5 && !caught; try++)); do
        fresh "$d"
        set -m # the job gets SIGINT (a script's background jobs ignore it)
        "$@" >/dev/null 2>"$ERR" &
        pid=$!
        set +m
        if stop_writing "$pid" "$d"; then
            caught=1
            kill "-$sig" "$pid"
            kill -CONT "$pid"
        fi
        wait "$pid" 2>/dev/null # (no "Hangup" line from the shell)
        rc=$?
    done
    if [ -z "$caught" ]; then
        bad "$desc: never caught writing (5 runs ended first)"
        return
    fi
    expect_rc $((128 + $(kill -l "$sig"))) "$desc: ended by SIG$sig"
    expect_old "$d" "$desc"
}

group_signals() {
    local big=$TMP/big.json bigp=$TMP/big.csv d=$TMP/k nodes=200000 bufs=100000
    # A sanitizer build (MEMTRIS_TEST_SANITIZER set) writes several times slower: a quarter
    # of the size still gives each signal a write in progress to land in.
    if [ -n "${MEMTRIS_TEST_SANITIZER:-}" ]; then nodes=50000 bufs=25000; fi
    "$M" gen random --nodes $nodes --seed 1 -o "$big" || bad "gen of the big graph"
    "$M" gen packing -n $bufs --seed 1 --format csv -o "$bigp" || bad "gen of the big CSV"
    for sig in INT TERM; do
        killed $sig "gen -o" "$M" gen random --nodes $nodes --seed 2 -o "$d/out"
        killed $sig "plan -f csv -o" "$M" plan "$big" --placer first-fit -f csv -o "$d/out"
        killed $sig "plan -f memory-viz -o" "$M" plan "$big" --placer first-fit -f memory-viz \
            -o "$d/out"
        killed $sig "plan --svg" "$M" plan "$big" --placer first-fit --svg "$d/out"
        killed $sig "place -o" "$M" place "$bigp" --placer first-fit -o "$d/out"
    done
    # gen's SIGINT is atomic_out's own handler; plan's and place's, the one a
    # search installs (cli_sigint.c), after which it writes
    killed HUP "gen -o" "$M" gen random --nodes $nodes --seed 2 -o "$d/out"
    killed HUP "plan -f json -o" "$M" plan "$big" --placer first-fit -f json -o "$d/out"
}

# writer DIR NODES: starts gen of NODES nodes (seed 2) writing DIR/out over
# the old one in the background and stops it mid-write (stop_writing): 0
# with the writer in $pid and its temporary file in $tmp; 1 when 5 runs
# ended before they were caught.
writer() {
    local d=$1 nodes=$2 try
    for ((try = 0; try < 5; try++)); do
        fresh "$d"
        "$M" gen random --nodes "$nodes" --seed 2 -o "$d/out" >/dev/null 2>"$ERR" &
        pid=$!
        stop_writing "$pid" "$d" && return 0
        wait "$pid"
    done
    bad "gen -o: never caught writing (5 runs ended first)"
    return 1
}

# Killed outright (SIGKILL: no handler runs), a writer leaves its temporary
# file; the next run that writes the same file removes it, and only files of
# its own pattern that no live process holds.
group_stale() {
    local d=$TMP/s ref=$TMP/ref big=$TMP/big.json nodes=200000 ino f
    local others=(.out.abcde .out.abcdefgh .other.abcdef out.abcdef .out.ab-def)
    if [ -n "${MEMTRIS_TEST_SANITIZER:-}" ]; then nodes=50000; fi
    "$M" gen random --nodes 300 --seed 3 >"$ref"
    writer "$d" $nodes || return
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    rc=$?
    expect_rc 137 "gen -o killed by SIGKILL"
    if [ -s "$tmp" ]; then ok; else bad "SIGKILL: no temporary file left behind ($tmp)"; fi
    for f in "${others[@]}"; do echo kept >"$d/$f"; done
    run "$M" gen random --nodes 300 --seed 3 -o "$d/out"
    expect_rc 0 "the next gen -o"
    expect_same "$d/out" "$ref" "the next gen -o: the whole new file"
    if [ ! -e "$tmp" ]; then ok; else bad "the next gen -o left the stale $tmp"; fi
    for f in "${others[@]}"; do
        if [ -f "$d/$f" ]; then ok; else bad "$f (not of the pattern) was removed"; fi
        rm -f "$d/$f"
    done
    expect_alone "$d" "the next gen -o"
    # a live writer (stopped mid-write) keeps its file through a second run
    "$M" gen random --nodes $nodes --seed 2 >"$big"
    writer "$d" $nodes || return
    ino=$(stat -c %i "$tmp")
    if awk -v pid="$pid" -v ino="$ino" '$2 == "FLOCK" && $5 == pid && $6 ~ ":" ino "$" { f = 1 }
        END { exit !f }' /proc/locks; then ok; else bad "the writer holds no flock on $tmp"; fi
    run "$M" gen random --nodes 300 --seed 3 -o "$d/out"
    expect_rc 0 "a second gen -o beside a live one"
    expect_same "$d/out" "$ref" "a second gen -o beside a live one: its file"
    if [ "$(stat -c %i "$tmp" 2>/dev/null)" = "$ino" ]; then ok
    else bad "a second gen -o removed the live writer's $tmp"; fi
    kill -CONT "$pid"
    wait "$pid"
    rc=$?
    expect_rc 0 "the live writer, let go on"
    expect_same "$d/out" "$big" "the live writer's whole file"
    expect_alone "$d" "the live writer, done"
}

group_errors() {
    local d=$TMP/e
    # a write that fails halfway (file size limit, SIGXFSZ ignored)
    fresh "$d"
    (ulimit -f 64; trap '' XFSZ; exec "$M" gen random --nodes 100000 -o "$d/out") >"$OUT" 2>"$ERR"
    rc=$?
    expect_rc 1 "-o past the file size limit"
    expect_grep "$ERR" "error writing '$d/out'" "a failed write names the path"
    expect_old "$d" "-o past the file size limit"
    fresh "$d"
    (ulimit -f 64; trap '' XFSZ; exec "$M" plan "$DEMO" --placer first-fit --svg "$d/out") \
        >"$OUT" 2>"$ERR"
    rc=$?
    if [ "$rc" -eq 0 ]; then ok; else expect_old "$d" "--svg past the file size limit"; fi
    # a full file system: a small tmpfs in a user namespace, where one may be made
    if ! unshare -rm true 2>/dev/null; then
        echo "SKIP (part): needs a user namespace: no full tmpfs to write into (unshare -rm failed)"
        return
    fi
    fresh "$d"
    unshare -rm bash -c 'mount -t tmpfs -o size=256k tmpfs "$1" && printf "%s" "$2" >"$1/out" &&
        "$3" gen random --nodes 100000 -o "$1/out" 2>"$4"; rc=$?
        cmp -s "$1/out" <(printf "%s" "$2") && [ "$(ls -A "$1")" = out ] && exit $rc; exit 99' \
        - "$d" "$OLD" "$M" "$ERR"
    rc=$?
    expect_rc 1 "-o on a full tmpfs (99: the old file changed or a temporary file is left)"
    expect_grep "$ERR" "No space left on device" "a full tmpfs is named"
}

group_tools() {
    local d=$TMP/t
    # tools/graphkit.py's open_output, which every tool writes through
    local lib="import os, signal, sys; sys.path.insert(0, '$SRC/tools'); import graphkit"
    fresh "$d"
    py "open_output replaces whole" "$lib
with graphkit.open_output(sys.argv[1]) as f: f.write('new\n')
assert open(sys.argv[1]).read() == 'new\n'
assert oct(os.stat(sys.argv[1]).st_mode & 0o777) == '0o600'" "$d/out"
    expect_alone "$d" "open_output replaces whole"
    for sig in INT TERM HUP; do
        fresh "$d"
        { # (no "Terminated" line from the shell)
            python3 -c "$lib
with graphkit.open_output(sys.argv[1]) as f:
    f.write('partial'); f.flush()
    os.kill(os.getpid(), signal.SIG$sig)" "$d/out"
            rc=$?
        } 2>/dev/null
        expect_rc $((128 + $(kill -l $sig))) "open_output: ended by SIG$sig"
        expect_old "$d" "open_output killed by SIG$sig"
    done
    fresh "$d"
    python3 -c "$lib
import resource
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
try:
    with graphkit.open_output(sys.argv[1]) as f: f.write('x' * 100000)
except OSError: sys.exit(1)" "$d/out"
    rc=$?
    expect_rc 1 "open_output past the file size limit"
    expect_old "$d" "open_output past the file size limit"
    # the tools themselves
    fresh "$d"
    replaced "$d" "assign_streams.py -o" - python3 "$SRC/tools/assign_streams.py" "$DEMO" \
        --streams 2 -o "$d/out"
    if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
        printf 'import torch\nclass Tiny(torch.nn.Module):\n    def forward(self, x):\n        return torch.relu(x) + 1\n' >"$TMP/tiny.py"
        (cd "$TMP" && /usr/bin/python3 "$SRC/tools/fx2memtris.py" tiny:Tiny --input-shape 4 >"$TMP/ref")
        replaced "$d" "fx2memtris.py -o" "$TMP/ref" \
            bash -c 'cd "$1" && /usr/bin/python3 "$2" tiny:Tiny --input-shape 4 -o "$3"' \
            - "$TMP" "$SRC/tools/fx2memtris.py" "$d/out"
    else echo "SKIP (part): needs python3-torch: fx2memtris.py -o is not run (no torch in /usr/bin/python3)"; fi
    if /usr/bin/python3 -c 'import onnx' 2>/dev/null; then
        /usr/bin/python3 -c 'import onnx, sys
from onnx import helper, TensorProto as T
x = helper.make_tensor_value_info("x", T.FLOAT, [1, 8])
y = helper.make_tensor_value_info("y", T.FLOAT, [1, 8])
g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
onnx.save(helper.make_model(g), sys.argv[1])' "$TMP/relu.onnx"
        /usr/bin/python3 "$SRC/tools/onnx2memtris.py" "$TMP/relu.onnx" >"$TMP/ref"
        replaced "$d" "onnx2memtris.py -o" "$TMP/ref" /usr/bin/python3 "$SRC/tools/onnx2memtris.py" \
            "$TMP/relu.onnx" -o "$d/out"
    else echo "SKIP (part): needs python3-onnx: onnx2memtris.py -o is not run (no onnx in /usr/bin/python3)"; fi
}

run_groups
