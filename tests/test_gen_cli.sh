#!/usr/bin/env bash
# test_gen_cli.sh: end-to-end checks of "memtris gen": usage errors (status 2),
# -o and its failures (status 1), every kind through validate and compare, and
# --streams against tools/graphkit.py's fork rule.
# Usage: test_gen_cli.sh MEMTRIS [GROUP]   (GROUP: usage, output, kinds, train or streams; all
# of them when omitted). Prints "N passed, M failed" last.
set -u

if [ $# -lt 1 ]; then
    echo "usage: $0 MEMTRIS [GROUP]" >&2
    exit 2
fi
M=$1
GROUP=${2:-all}
KINDS="chain branch alloc-heavy huge random randwire train"
. "$(dirname "$0")/clilib.sh" gen

# usage_error DESC WANT_IN_STDERR ARGS...: status 2, the message, no stdout.
usage_error() {
    local desc=$1 want=$2
    shift 2
    run "$M" gen "$@"
    expect_rc 2 "$desc"
    expect_empty "$OUT" "$desc (stdout)"
    expect_grep "$ERR" "$want" "$desc (message)"
    expect_grep "$ERR" "Try 'memtris gen --help'" "$desc (hint)"
}

# ------------------------------------------------------------------ groups

group_usage() {
    usage_error "no KIND" "missing KIND" 
    expect_grep "$ERR" "chain, branch, alloc-heavy, huge, random, randwire" "missing KIND lists the kinds"
    usage_error "unknown kind" "unknown kind 'nope'" nope
    expect_grep "$ERR" "chain, branch, alloc-heavy, huge, random, randwire" "unknown kind lists the kinds"
    usage_error "two kinds" "expected one KIND" chain branch
    usage_error "--nodes 0" "--nodes wants a positive integer, not '0'" chain --nodes 0
    usage_error "--nodes abc" "not 'abc'" chain --nodes abc
    usage_error "--nodes -5" "not '-5'" chain --nodes -5
    usage_error "--nodes 10x" "not '10x'" chain --nodes 10x
    usage_error "--nodes ''" "not ''" chain --nodes ''
    usage_error "--nodes +7" "not '+7'" chain --nodes +7
    usage_error "--nodes past 2^64" "not '99999999999999999999999'" chain --nodes 99999999999999999999999
    usage_error "--nodes over the limit" "at most 100000000" chain --nodes 100000001
    usage_error "-n without a value" "needs a value" chain -n
    usage_error "chain below its minimum" "kind 'chain' needs --nodes 7 or more, not 6" chain --nodes 6
    usage_error "branch below its minimum" "kind 'branch' needs --nodes 13 or more, not 12" branch -n 12
    usage_error "randwire below its minimum" "kind 'randwire' needs --nodes 22 or more, not 21" randwire -n 21
    usage_error "train below its minimum" "kind 'train' needs --nodes 19 or more, not 18" train -n 18
    usage_error "--seed abc" "--seed wants an integer from 0 to 2^64-1, not 'abc'" chain --seed abc
    usage_error "--seed -1" "not '-1'" chain --seed -1
    usage_error "--seed 2^64" "not '18446744073709551616'" chain --seed 18446744073709551616
    usage_error "unknown long option" "unknown option '--bogus'" chain --bogus
    usage_error "unknown short option" "unknown option '-Z'" chain -Z
    run "$M" gen chain --nodes 7 --seed 18446744073709551615
    expect_rc 0 "--seed 2^64-1 and --nodes at the minimum"
    for opt in --help -h; do
        run "$M" gen "$opt"
        expect_rc 0 "gen $opt"
        expect_grep "$OUT" "Usage: memtris gen KIND" "gen $opt: usage on stdout"
        for k in $KINDS; do expect_grep "$OUT" "  $k " "gen $opt lists $k"; done
        expect_empty "$ERR" "gen $opt (stderr)"
    done
    run "$M" gen -V
    expect_rc 0 "gen -V"
    if grep -qE '^memtris [0-9]+\.[0-9]+' "$OUT"; then ok; else bad "gen -V prints 'memtris X.Y'"; fi
    run "$M" --help
    expect_grep "$OUT" "gen KIND" "memtris --help lists gen"
}

group_output() {
    run "$M" gen random --nodes 500 --seed 9
    expect_rc 0 "gen to stdout"
    cp "$OUT" "$TMP/stdout.json"
    run "$M" gen random --nodes 500 --seed 9 -o "$TMP/o.json"
    expect_rc 0 "gen -o FILE"
    expect_empty "$OUT" "gen -o FILE (stdout)"
    expect_empty "$ERR" "gen -o FILE (stderr)"
    expect_same "$TMP/stdout.json" "$TMP/o.json" "-o FILE writes what stdout gets"
    echo "old contents, longer than nothing" >"$TMP/o2.json"
    run "$M" gen --output="$TMP/o2.json" --seed=9 random --nodes=500
    expect_rc 0 "gen --output=FILE, options before KIND"
    expect_same "$TMP/stdout.json" "$TMP/o2.json" "--output replaces an existing file"
    run "$M" gen random --nodes 500 --seed 9 -o -
    expect_rc 0 "gen -o -"
    expect_same "$TMP/stdout.json" "$OUT" "-o - is stdout"
    run "$M" gen random --nodes 500 --seed 9
    expect_same "$TMP/stdout.json" "$OUT" "the same seed gives the same bytes"
    run "$M" gen random --nodes 500 --seed 10
    if cmp -s "$TMP/stdout.json" "$OUT"; then bad "another seed gives other bytes"; else ok; fi
    run "$M" gen random --nodes 500
    cp "$OUT" "$TMP/default.json"
    run "$M" gen random --nodes 500 --seed 1
    expect_same "$TMP/default.json" "$OUT" "the default seed is 1"
    run "$M" gen chain
    cp "$OUT" "$TMP/chain.json"
    run "$M" validate "$TMP/chain.json"
    expect_grep "$OUT" "nodes      1000 (" "the default is 1000 nodes"

    # Unwritable -o: status 1, the path named, nothing left behind.
    run "$M" gen chain -o "$TMP/no-such-dir/g.json"
    expect_rc 1 "-o into a missing directory"
    expect_grep "$ERR" "cannot open '$TMP/no-such-dir/g.json' for writing" "-o failure names the path"
    expect_empty "$OUT" "-o failure (stdout)"
    run "$M" gen chain -o "$TMP"
    expect_rc 1 "-o a directory"
    expect_grep "$ERR" "'$TMP'" "-o a directory names it"
    if [ "$(id -u)" -ne 0 ]; then
        mkdir "$TMP/ro" && chmod a-w "$TMP/ro"
        run "$M" gen chain -o "$TMP/ro/g.json"
        expect_rc 1 "-o in a read-only directory"
        expect_grep "$ERR" "'$TMP/ro/g.json'" "read-only -o names the path"
    fi
    # A write that fails halfway (file size limit, SIGXFSZ ignored): status 1,
    # the path named, the partial file removed.
    (ulimit -f 64; trap '' XFSZ; exec "$M" gen random --nodes 100000 -o "$TMP/big.json") >"$OUT" 2>"$ERR"
    rc=$?
    expect_rc 1 "-o past the file size limit"
    expect_grep "$ERR" "error writing '$TMP/big.json'" "a failed write names the path"
    if [ ! -e "$TMP/big.json" ]; then ok; else bad "a failed -o leaves no partial file"; fi
    # Standard output closed early (SIGPIPE ignored): status 1 and a message.
    (trap '' PIPE; "$M" gen random --nodes 100000 2>"$ERR" | head -c 10 >/dev/null; exit "${PIPESTATUS[0]}")
    rc=$?
    expect_rc 1 "stdout closed early"
    expect_grep "$ERR" "error writing standard output" "a failed stdout write is reported"
    if [ -c /dev/full ] && [ -w /dev/full ]; then
        run "$M" gen chain -o /dev/full
        expect_rc 1 "-o /dev/full"
        expect_grep "$ERR" "error writing '/dev/full'" "a failed write names the path"
        # only a regular file of ours is removed (as root, remove() would take the device)
        if [ -c /dev/full ]; then ok; else bad "-o /dev/full removed the device"; fi
        "$M" gen chain --nodes 100000 >/dev/full 2>"$ERR"
        rc=$?
        expect_rc 1 "stdout on /dev/full"
        expect_grep "$ERR" "error writing standard output" "a failed stdout write is reported"
    fi
}

# least N of each kind, as documented
min_of() {
    case $1 in
    chain | random) echo 7 ;;
    alloc-heavy) echo 9 ;;
    branch | huge) echo 13 ;;
    randwire) echo 22 ;;
    train) echo 19 ;;
    esac
}

group_kinds() {
    local k n min
    for k in $KINDS; do
        min=$(min_of "$k")
        for n in "$min" $((min + 1)) $((min + 2)) 1000 100000; do
            "$M" gen "$k" --nodes "$n" --seed 3 -o "$TMP/g.json" 2>"$ERR"
            rc=$?
            expect_rc 0 "gen $k --nodes $n"
            run "$M" validate "$TMP/g.json"
            expect_rc 0 "validate gen $k --nodes $n"
            expect_grep "$OUT" "nodes      $n (" "gen $k makes exactly $n nodes"
            expect_empty "$ERR" "gen $k --nodes $n: no errors or warnings"
        done
        "$M" gen "$k" | "$M" compare -f json - >"$OUT" 2>"$ERR"
        rc=$?
        expect_rc 0 "gen $k | compare -"
        expect_grep "$OUT" '"policy": "fifo"' "compare $k: fifo"
        expect_grep "$OUT" '"policy": "priority"' "compare $k: priority"
        expect_empty "$ERR" "compare $k (stderr)"
    done
    # 2^52 bytes, exact in validate and in the peak (64-bit accounting).
    "$M" gen huge --nodes 1001 -o "$TMP/huge.json"
    run "$M" validate "$TMP/huge.json"
    expect_grep "$OUT" "4.0 PiB (4503599627370496 bytes)" "huge: the 2^52 buffer"
    local p peak
    for p in fifo priority; do
        run "$M" schedule -p "$p" -f json "$TMP/huge.json"
        peak=$(grep -oE '"peak": [0-9]+' "$OUT" | grep -oE '[0-9]+')
        if [ -n "$peak" ] && [ "$peak" -gt 4503599627370496 ] && [ "$peak" -lt 4503599627580000 ]; then ok
        else bad "huge: $p peak '$peak' is 2^52 plus small buffers"; fi
        run "$M" schedule -p "$p" "$TMP/huge.json"
        expect_grep "$OUT" "peak 4.0 PiB ($peak bytes)" "huge: $p text peak is exact"
    done
}

# gen train: a training step that policy given runs in its own order (Ids topological), with
# the bytes at the peak by category; priority peaks no higher.
group_train() {
    "$M" gen train -n 2000 | "$M" schedule -p given - >"$OUT" 2>"$ERR"
    rc=$?
    expect_rc 0 "gen train | schedule -p given -"
    expect_empty "$ERR" "gen train | schedule -p given - (stderr)"
    expect_grep "$OUT" "policy given, 2000 nodes" "schedule -p given runs the step"
    grep '^at the peak: ' "$OUT" >"$TMP/bycat.txt"
    expect_grep "$TMP/bycat.txt" "activation" "activations are live at given's peak"
    expect_grep "$TMP/bycat.txt" "weight" "weights are live at given's peak"
    expect_grep "$TMP/bycat.txt" "gradient" "gradients are live at given's peak"
    "$M" gen train -n 2000 --seed 9 -o "$TMP/train.json"
    local given prio
    given=$("$M" schedule -p given -f json "$TMP/train.json" | grep -oE '"peak": [0-9]+' | head -1 | grep -oE '[0-9]+')
    prio=$("$M" schedule -p priority -f json "$TMP/train.json" | grep -oE '"peak": [0-9]+' | head -1 | grep -oE '[0-9]+')
    # priority updates each weight as soon as its gradient exists: well below given
    if [ -n "$given" ] && [ -n "$prio" ] && [ "$((prio * 10))" -le "$((given * 9))" ]; then ok
    else bad "train: priority's peak '$prio' is at least 10% below given's '$given'"; fi
    run "$M" schedule -p given -f json "$TMP/train.json"
    expect_grep "$OUT" '"peak_by_category"' "schedule -f json: peak_by_category"
    expect_grep "$OUT" '"activation": ' "peak_by_category has activations"
}

# --streams: the range, kinds only; 1 is the default; the fork rule is
# tools/graphkit.py's (assign_streams.py gives the same Streams).
group_streams() {
    usage_error "--streams 0" "--streams wants an integer from 1 to 64, not '0'" branch --streams 0
    usage_error "--streams 65" "not '65'" branch --streams 65
    usage_error "--streams abc" "not 'abc'" branch --streams abc
    usage_error "--streams -1" "not '-1'" branch --streams -1
    usage_error "--streams ''" "not ''" branch --streams ''
    usage_error "--streams without a value" "needs a value" branch --streams
    usage_error "packing --streams" "--streams is for graph kinds, not 'packing'" packing --streams 2
    run "$M" gen branch -n 300
    cp "$OUT" "$TMP/plain.json"
    expect_grep "$OUT" '"Latency": ' "gen writes Latency"
    if grep -q '"Stream"' "$OUT"; then bad "gen without --streams writes no Stream"; else ok; fi
    run "$M" gen branch -n 300 --streams 1
    expect_same "$TMP/plain.json" "$OUT" "--streams 1 is the default"
    local k
    for k in $KINDS; do
        "$M" gen "$k" -n 2000 --seed 4 >"$TMP/$k.json"
        "$M" gen "$k" -n 2000 --seed 4 --streams 3 -o "$TMP/$k-3.json" 2>"$ERR"
        rc=$?
        expect_rc 0 "gen $k --streams 3"
        run "$M" validate "$TMP/$k-3.json"
        expect_rc 0 "gen $k --streams 3 validates"
        expect_empty "$ERR" "gen $k --streams 3: no warnings"
    done
    "$M" gen branch -n 2000 --seed 4 --streams 64 -o "$TMP/branch-64.json"
    # One Python for every kind: the Streams gen writes are graphkit's.
    if python3 - "$(dirname "$0")/../tools" "$TMP" $KINDS >"$TMP/py.out" 2>&1 <<'PY'
import json, sys
sys.path.insert(0, sys.argv[1])
import graphkit
tmp, bad = sys.argv[2], []
for k in sys.argv[3:]:
    for n in (3, 64) if k == "branch" else (3,):
        plain, got = (json.load(open(f"{tmp}/{k}{s}.json")) for s in ("", f"-{n}"))
        graphkit.set_streams(plain, n)
        if plain != got:
            bad.append(f"{k} --streams {n}")
print("differ from graphkit:", bad) if bad else None
sys.exit(1 if bad else 0)
PY
    then ok; else bad "gen --streams follows graphkit's fork rule: $(tail -c 300 "$TMP/py.out")"; fi
}

# ------------------------------------------------------------------ driver

run_groups
