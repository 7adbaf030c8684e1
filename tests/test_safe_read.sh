#!/usr/bin/env bash
# test_safe_read.sh: an input file that another process shrinks or rewrites
# while memtris reads it never crashes memtris (an mmap'd input died of
# SIGBUS, status 135): each reader, over and over, with the file cut short at
# a different moment; the status is 0 (read before the cut) or 1 with a
# message, never a signal. Deterministic in what it checks, not in where each
# cut lands; a run that never cuts mid-read still passes, and says so.
# Usage: test_safe_read.sh MEMTRIS [GROUP]   (GROUP: json or csv; both when
# omitted). Prints "N passed, M failed" last.
set -u

if [ $# -lt 1 ]; then
    echo "usage: $0 MEMTRIS [GROUP]" >&2
    exit 2
fi
M=$1
GROUP=${2:-all}
. "$(dirname "$0")/clilib.sh" safe-read

# The moments (seconds after the start) at which the file is cut.
DELAYS="0 0.005 0.01 0.02 0.03 0.05 0.08 0.12 0.18 0.25 0.35 0.5"

# cut_while_read PRISTINE TARGET DESC CMD...: for each delay, copies PRISTINE
# to TARGET, starts CMD, cuts TARGET to a third (then to nothing, then
# rewrites it whole) after the delay; CMD's status is 0 or 1, never more.
cut_while_read() {
    local pristine=$1 target=$2 desc=$3 d size changed=0 pid
    shift 3
    size=$(stat -c %s "$pristine")
    for d in $DELAYS; do
        cp "$pristine" "$target"
        "$@" >"$OUT" 2>"$ERR" &
        pid=$!
        sleep "$d"
        truncate -s $((size / 3)) "$target"
        : >"$target"
        cp "$pristine" "$target"
        wait "$pid"
        rc=$?
        if [ "$rc" -le 1 ]; then ok; else bad "$desc, cut after ${d}s: killed by a signal"; fi
        if [ "$rc" -eq 1 ]; then
            if [ -s "$ERR" ]; then ok; else bad "$desc, cut after ${d}s: status 1 says nothing"; fi
            grep -q "changed while it was read" "$ERR" && changed=$((changed + 1))
        fi
    done
    echo "$desc: $changed of $(echo $DELAYS | wc -w) runs saw the file change"
}

# ------------------------------------------------------------------ groups

group_json() {
    "$M" gen random --nodes 100000 --seed 3 -o "$TMP/pristine.json" || bad "gen"
    cut_while_read "$TMP/pristine.json" "$TMP/g.json" "validate" "$M" validate "$TMP/g.json"
    cut_while_read "$TMP/pristine.json" "$TMP/g.json" "schedule" \
        "$M" schedule "$TMP/g.json" --format json
    # A file that was whole says nothing of a change.
    run "$M" validate "$TMP/pristine.json"
    expect_rc 0 "validate of a file left alone"
    if grep -q "changed while" "$ERR"; then bad "a file left alone: 'changed' said"; else ok; fi
}

group_csv() {
    "$M" gen packing -n 200000 --seed 3 --format csv -o "$TMP/pristine.csv" || bad "gen"
    cut_while_read "$TMP/pristine.csv" "$TMP/p.csv" "place" \
        "$M" place "$TMP/p.csv" --placer first-fit -o "$TMP/out.csv"
}

# ------------------------------------------------------------------ driver

run_groups
