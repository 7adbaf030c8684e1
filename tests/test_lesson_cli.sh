#!/usr/bin/env bash
# test_lesson_cli.sh: memtris lesson --check on the command line (issue 45): its time grows
# linearly with the stops (a ratio of two sizes timed in the same run, never a wall-clock
# limit), a progress line on a terminal and none in a file, the size limits the man page gives
# (stops, bytes) refused with FILE:LINE:COLUMN and status 1, a key given as one UTF-8 character,
# and invalid UTF-8 refused. Usage: test_lesson_cli.sh MEMTRIS SOURCE_DIR [GROUP].
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 MEMTRIS SOURCE_DIR [GROUP]" >&2
    exit 2
fi
M=$1
SRC=$2
GROUP=${3:-all}
. "$(dirname "$0")/clilib.sh" lesson
cp "$SRC/samples/demo.json" "$TMP/demo.json"

# stops N FILE: a lesson of N stops on demo.json, each with its keys and a step.
stops() {
    awk -v n="$1" 'BEGIN { print "title Many stops"; print "graph demo.json"
        for (i = 0; i < n; i++) printf "stop S%d\nkeys Right P\nstep %d\nsay stop %d.\n", i, i % 61, i }' >"$2"
}

# seconds FILE: the least of three runs of --check on FILE (status 0 each), in seconds of CPU
# time (user and system: the machine's other load does not count), at least 0.004 (a tick).
seconds() {
    local best="" t i TIMEFORMAT='%3U %3S' LC_ALL=C # a decimal point in any locale
    for i in 1 2 3; do
        t=$({ time "$M" lesson --check "$1" >"$OUT" 2>"$ERR"; } 2>&1)
        rc=$?
        expect_rc 0 "--check $(basename "$1")"
        best=$(echo "$t" | awk -v m="$best" '{ d = $1 + $2; if (d < 0.004) d = 0.004
            print (m == "" || d < m) ? d : m }')
    done
    echo "$best"
}

group_linear() {
    stops 20 "$TMP/s20.lesson"
    stops 2000 "$TMP/s2k.lesson"
    stops 20000 "$TMP/s20k.lesson"
    local t20 t2k t20k
    t20=$(seconds "$TMP/s20.lesson")
    t2k=$(seconds "$TMP/s2k.lesson")
    t20k=$(seconds "$TMP/s20k.lesson")
    run "$M" lesson --check "$TMP/s20k.lesson"
    expect_grep "$OUT" "s20k.lesson: 20000 stops on demo.json (61 nodes): ok" "20000 stops: ok"
    # ten times the stops take about ten times as long (a quadratic cost: 100 times)
    if awk -v a="$t2k" -v b="$t20k" 'BEGIN { exit !(b < 15 * a) }'; then ok
    else bad "20000 stops took $t20k s, 2000 stops $t2k s: more than 15 times as long"; fi
    # nothing of the graph's is worked out again at each stop (its lower bound was, 8 ms a
    # stop): 2000 stops cost less than 40 times 20 stops, the graph's load and bound
    if awk -v a="$t20" -v b="$t2k" 'BEGIN { exit !(b < 40 * a) }'; then ok
    else bad "2000 stops took $t2k s, 20 stops $t20 s: more than 40 times as long"; fi
    echo "CPU seconds: 20 stops $t20, 2000 stops $t2k, 20000 stops $t20k"
}

group_progress() {
    if ! command -v script >/dev/null 2>&1; then
        bad "script(1) is missing: the progress line cannot be tested on a terminal"
        return
    fi
    local cr=$'\r' clear=$'\r\033[K'
    stops 3000 "$TMP/p.lesson"
    script -qec "$(printf '%q ' "$M" lesson --check "$TMP/p.lesson")" /dev/null >"$TMP/tty" 2>&1 </dev/null
    rc=$?
    expect_rc 0 "--check on a terminal"
    expect_grep "$TMP/tty" "${cr}lesson --check: stop 1 of 3000" "the progress line: the stop of how many"
    expect_grep "$TMP/tty" "${clear}$TMP/p.lesson: 3000 stops on demo.json (61 nodes): ok" \
        "the line cleared before the result"
    # with stderr a file or a pipe there is none of it
    run "$M" lesson --check "$TMP/p.lesson"
    expect_rc 0 "--check, stderr a file"
    expect_empty "$ERR" "--check, stderr a file: nothing on it"
    "$M" lesson --check "$TMP/p.lesson" 2>&1 >/dev/null | cat >"$TMP/pipe"
    expect_empty "$TMP/pipe" "--check, stderr a pipe: nothing on it"
}

group_limits() {
    stops 100000 "$TMP/max.lesson"
    run "$M" lesson --check "$TMP/max.lesson"
    expect_rc 0 "100000 stops: as many as a lesson may have"
    printf 'stop One more\nsay too many.\n' >>"$TMP/max.lesson"
    run "$M" lesson --check "$TMP/max.lesson"
    expect_rc 1 "100001 stops: refused"
    expect_grep "$ERR" "max.lesson:400003:1: error: a stop past the 100000 a lesson may have: split the lesson" \
        "100001 stops: the message and its place"
    expect_empty "$OUT" "100001 stops: nothing on stdout"
    stops 1 "$TMP/one.lesson"
    { cat "$TMP/one.lesson"; yes '# a comment line of padding' | head -c $((16 * 1024 * 1024)); } >"$TMP/big.lesson"
    run "$M" lesson --check "$TMP/big.lesson"
    expect_rc 1 "over 16 MiB: refused"
    expect_grep "$ERR" "big.lesson:1:1: error: the lesson is $(stat -c %s "$TMP/big.lesson") bytes, more than the 16777216 (16 MiB) a lesson may have: split it" \
        "over 16 MiB: the message"
    run "$M" lesson --help
    expect_grep "$OUT" "100000 stops" "--help gives the stops' limit"
    expect_grep "$OUT" "16 MiB" "--help gives the bytes' limit"
}

group_keys() {
    printf 'graph demo.json\nstop\nkeys / é Enter\nsay a key of one UTF-8 character.\nstop\nkeys € 😀 ß\nsay more.\n' \
        >"$TMP/utf8.lesson"
    run "$M" lesson --check "$TMP/utf8.lesson"
    expect_rc 0 "keys é, €, 😀, ß: taken"
    expect_grep "$OUT" "2 stops on demo.json" "keys é: the lesson checks"
    printf 'graph demo.json\nstop\nsay x\nkeys a \xc3\n' >"$TMP/cut.lesson"
    run "$M" lesson --check "$TMP/cut.lesson"
    expect_rc 1 "a key cut in its UTF-8: refused"
    expect_grep "$ERR" "cut.lesson:4:8: error: byte 0xC3 is not valid UTF-8 (a lesson is UTF-8 text)" \
        "a key cut in its UTF-8: the message"
    printf 'graph demo.json\nstop\nsay x\nkeys \xe9\n' >"$TMP/latin1.lesson"
    run "$M" lesson --check "$TMP/latin1.lesson"
    expect_rc 1 "a Latin-1 é: refused"
    expect_grep "$ERR" "latin1.lesson:4:6: error: byte 0xE9 is not valid UTF-8" "a Latin-1 é: the message"
    printf 'graph demo.json\nstop\nsay x\nkeys éé\n' >"$TMP/two.lesson"
    run "$M" lesson --check "$TMP/two.lesson"
    expect_rc 1 "two characters in one key: refused"
    expect_grep "$ERR" "two.lesson:4:6: error: unknown key 'éé'" "two characters: the message"
}

run_groups
