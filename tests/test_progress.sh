#!/usr/bin/env bash
# test_progress.sh: long work on the command line. The progress line shows on a
# terminal (script(1) gives the command one) and never in a file; iterate
# refuses a run its first iterations say would pass --max-seconds (the time of
# an iteration injected with MEMTRIS_TEST_ITERATION_SECONDS, so nothing here
# depends on the machine's speed); SIGINT ends iterate and compare cleanly:
# status 130, the progress line cleared, an output file left as it was. On a
# terminal of a given width each progress line fits it whole: a long path is
# shortened from the left, its file name and the figures after it kept (the
# expected lines are made for the width, never assuming that the path fits).
# Usage: test_progress.sh MEMTRIS SOURCE_DIR [GROUP]. Prints "N passed, M failed" last.
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 MEMTRIS SOURCE_DIR [GROUP]" >&2
    exit 2
fi
M=$1
SRC=$2
GROUP=${3:-all}
DEMO=$SRC/samples/demo.json
BERT=$SRC/samples/bert_base.json
. "$(dirname "$0")/clilib.sh" progress

# refused DESC SECONDS_EACH ARGS...: iterate refuses with status 2 and the
# estimate, writing nothing.
refused() {
    local desc=$1 each=$2
    shift 2
    MEMTRIS_TEST_ITERATION_SECONDS=$each run "$M" iterate "$DEMO" "$@"
    expect_rc 2 "$desc"
    expect_empty "$OUT" "$desc (stdout)"
    expect_grep "$ERR" "more than --max-seconds" "$desc (message)"
    expect_grep "$ERR" "--max-seconds 0 for no limit" "$desc (the way out)"
    expect_grep "$ERR" "Try 'memtris iterate --help'" "$desc (usage hint)"
}

group_max_seconds() {
    # 10^7 iterations of 0.15 s: 1.5 million s (417 h), past the default 300 s
    refused "the issue's run" 0.15 --iterations 10000000
    expect_grep "$ERR" "10000000 iterations would take about 417 h (150.0 ms each, timed over the first 1)" \
        "the issue's run: the estimate"
    expect_grep "$ERR" "more than --max-seconds 300:" "the default limit is 300 s"
    refused "past a given limit" 0.15 --iterations 100 --max-seconds 10
    expect_grep "$ERR" "100 iterations would take about 15.00 s" "past a given limit: the estimate"
    # within the limit, or with none: it runs
    MEMTRIS_TEST_ITERATION_SECONDS=0.15 run "$M" iterate "$DEMO" --iterations 100 --max-seconds 20
    expect_rc 0 "within --max-seconds"
    expect_grep "$OUT" "100 iterations" "within --max-seconds: the text"
    expect_empty "$ERR" "within --max-seconds (stderr)"
    MEMTRIS_TEST_ITERATION_SECONDS=1000 run "$M" iterate "$DEMO" --iterations 1000 --max-seconds 0
    expect_rc 0 "--max-seconds 0: no limit"
    # a refusal leaves -o's old content as it was
    echo "old content" >"$TMP/keep.txt"
    MEMTRIS_TEST_ITERATION_SECONDS=0.15 run "$M" iterate "$DEMO" --iterations 10000 -o "$TMP/keep.txt"
    expect_rc 2 "refused with -o"
    if [ "$(cat "$TMP/keep.txt")" = "old content" ]; then ok; else bad "refused with -o: the file changed"; fi
    for v in -1 x nan inf ''; do
        run "$M" iterate "$DEMO" --max-seconds "$v"
        expect_rc 2 "--max-seconds '$v'"
        expect_grep "$ERR" "--max-seconds wants a number of seconds, 0 or more" "--max-seconds '$v' (message)"
        expect_empty "$OUT" "--max-seconds '$v' (stdout)"
    done
    run "$M" iterate --help
    expect_grep "$OUT" "--max-seconds S" "--help names --max-seconds"
}

# tty_run CMD...: runs CMD with a terminal for its stdout and stderr
# (script(1)) of $TTY_COLS columns (80 unless set) and 24 rows, in the locale
# $TTY_LC (C.UTF-8 unless set: the ellipsis "…"); what the terminal got in
# $TMP/tty, the status in $rc.
tty_run() {
    LC_ALL=${TTY_LC:-C.UTF-8} script -qec "stty cols ${TTY_COLS:-80} rows 24 && $(printf '%q ' "$@")" \
        /dev/null >"$TMP/tty" 2>&1 </dev/null
    rc=$?
}

# on_tty DESC CMD...: tty_run CMD, which must succeed.
on_tty() {
    local desc=$1
    shift
    tty_run "$@"
    expect_rc 0 "$desc (on a terminal)"
}

# fitted HEAD PATH TAIL [COLUMNS [ELLIPSIS]]: the progress line HEAD PATH TAIL
# as a terminal of COLUMNS (80) shows it: in COLUMNS-1 characters, PATH
# shortened from the left to ELLIPSIS ("…") and its end where it is longer.
fitted() {
    python3 -c 'import sys
head, path, tail, cols, ell = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
room = cols - 1 - len(head) - len(tail)
assert room > len(ell), "no room for the path"
if len(path) > room:
    path = ell + path[len(path) - (room - len(ell)):]
print(head + path + tail, end="")' "$1" "$2" "$3" "${4:-80}" "${5:-…}"
}

# expect_line DESC HEAD PATH TAIL [COLUMNS [ELLIPSIS]]: the terminal got the
# line fitted HEAD PATH TAIL whole, from its "\r" to its "ESC[K".
expect_line() {
    local desc=$1
    shift
    expect_grep "$TMP/tty" $'\r'"$(fitted "$@")"$'\033[K' "$desc"
}

# fits DESC [COLUMNS]: every progress line the terminal got takes at most
# COLUMNS-1 (79) characters.
fits() {
    py "$1: every progress line fits ${2:-80} columns" 'import re, sys
text = open(sys.argv[1], encoding="utf-8", errors="replace", newline="").read()
lines = re.findall("\r([^\r\n\x1b]*)\x1b\\[K", text)
assert any(lines), "no progress line in %r" % text[:300]
wide = [s for s in lines if len(s) > int(sys.argv[2]) - 1]
assert not wide, "wider than the terminal: %r" % wide' "$TMP/tty" "${2:-80}"
}

group_tty() {
    if ! command -v script >/dev/null 2>&1; then
        bad "script(1) is missing: the progress line cannot be tested on a terminal"
        return
    fi
    local cr=$'\r' clear=$'\r\033[K'
    on_tty "iterate" "$M" iterate "$DEMO" --iterations 5 -o "$TMP/it.txt"
    expect_grep "$TMP/tty" "${cr}iterate: iteration 1 of 5 (20%), about" "iterate: the iteration and time left"
    expect_line "iterate: the loading" "loading " "$DEMO" ": checking the graph..."
    expect_grep "$TMP/tty" "${cr}scheduling with policy priority..." "iterate: the policy"
    # the line is cleared: the terminal's last bytes are the clear, nothing after
    if [ "$(tail -c 4 "$TMP/tty")" = "$clear" ]; then ok; else bad "iterate: the line is not cleared last"; fi
    fits "iterate"
    on_tty "compare" "$M" compare "$BERT" --policies fifo,priority --placers first-fit,best-fit
    expect_grep "$TMP/tty" "${cr}compare: policy 2 of 2 (priority)" "compare: the policy of how many"
    expect_grep "$TMP/tty" "${cr}compare: placing 4 of 4 (placer best-fit, policy priority's schedule)" \
        "compare: the placing of how many"
    # the table starts on a line of its own: the progress line was cleared first
    expect_grep "$TMP/tty" "${clear}$BERT: 712 nodes" "compare: the line cleared before the table"
    fits "compare"
    on_tty "compare --pareto" "$M" compare "$DEMO" --pareto
    expect_grep "$TMP/tty" "${cr}compare --pareto: point 1 of 19 (fifo)" "compare --pareto: the points"
    expect_grep "$TMP/tty" "${cr}compare --pareto: point 8 of 19 (weighted)" "compare --pareto: a new stage at once"
    printf 'id,lower,upper,size\nb1,0,2,8\nb2,1,3,8\n' >"$TMP/p.csv"
    on_tty "place" "$M" place "$TMP/p.csv" --placer exact --time-limit 1
    expect_line "place: the reading" "reading " "$TMP/p.csv" "..."
    expect_grep "$TMP/tty" "${cr}placing with exact (--time-limit 1 s)..." "place: the placer and its limit"
    on_tty "gen" "$M" gen random -n 20000 -o "$TMP/g.json"
    expect_grep "$TMP/tty" "${cr}gen: making 20000 nodes of random..." "gen: the making"
    expect_grep "$TMP/tty" "${cr}gen: 1 MiB written" "gen: the bytes written"
    on_tty "plan" "$M" plan "$DEMO" --placer best
    expect_grep "$TMP/tty" "${cr}placing with best..." "plan: the placer"
    # a message is never on the progress line: it starts on a line of its own
    printf '%s' '{"Nodes": [{"Id": 1, "Op": "a"}, {"Id": 2, "Op": "b"}], "Edges": [[1, 2], [2, 1]]}' \
        >"$TMP/cycle.json"
    tty_run "$M" iterate "$TMP/cycle.json"
    expect_rc 1 "a graph refused (on a terminal)"
    expect_line "a graph refused: the loading shown" "loading " "$TMP/cycle.json" ": checking the graph..."
    expect_grep "$TMP/tty" "${clear}$TMP/cycle.json: error: the graph has a cycle" "a message after a progress line starts cleared"
    # with stderr a file or a pipe there is none of it (paths may hold spaces)
    quiet iterate "$DEMO" --iterations 5
    quiet compare "$BERT" --placers first-fit
    quiet compare "$DEMO" --pareto
    quiet plan "$DEMO"
    quiet place "$TMP/p.csv" --placer exact
    quiet gen random -n 20000 -o "$TMP/g2.json"
}

# A path far longer than the terminal is wide (at least 150 characters, with
# spaces): shortened from the left, its file name and the figures kept whole.
group_long_path() {
    local d=$TMP part
    for part in "a folder with spaces" "and another one with spaces" abcdefghijklmnopqrstuvwxyz0123456789 \
        abcdefghijklmnopqrstuvwxyz0123456789 ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 samples; do
        d=$d/$part
    done
    mkdir -p "$d"
    cp "$DEMO" "$d/demo.json"
    printf 'id,lower,upper,size\nb1,0,2,8\nb2,1,3,8\n' >"$d/p.csv"
    on_tty "a long path" "$M" iterate "$d/demo.json" --iterations 5 -o "$TMP/it.txt"
    if [ ${#d} -ge 150 ] && [[ $(fitted "loading " "$d/demo.json" ": checking the graph...") == "loading …"*"/samples/demo.json: checking the graph..." ]]
    then ok; else bad "the long path (${#d} characters) is not shortened by fitted"; fi
    expect_line "a long path: the loading at 80 columns" "loading " "$d/demo.json" ": checking the graph..."
    expect_grep "$TMP/tty" $'\r'"iterate: iteration 1 of 5 (20%), about" "a long path: the iterations"
    fits "a long path at 80 columns"
    for cols in 40 132; do
        TTY_COLS=$cols on_tty "a long path, $cols columns" "$M" iterate "$d/demo.json" --iterations 5 -o "$TMP/it.txt"
        expect_line "a long path at $cols columns" "loading " "$d/demo.json" ": checking the graph..." $cols
        fits "a long path at $cols columns" $cols
    done
    # where the locale is not UTF-8 the ellipsis is ASCII
    TTY_LC=C on_tty "a long path, C locale" "$M" iterate "$d/demo.json" --iterations 5 -o "$TMP/it.txt"
    expect_line "a long path, C locale" "loading " "$d/demo.json" ": checking the graph..." 80 "..."
    fits "a long path, C locale"
    on_tty "place, a long path" "$M" place "$d/p.csv" --placer exact --time-limit 1
    expect_line "place, a long path: the reading" "reading " "$d/p.csv" "..."
    expect_line "place, a long path: the graph" "making the graph of " "$d/p.csv" "..."
    fits "place, a long path"
    # a terminal too narrow for the figures: whole fields only, never a cut word or figure
    TTY_COLS=40 on_tty "iterate, 40 columns" "$M" iterate "$DEMO" --iterations 5 -o "$TMP/it.txt"
    expect_grep "$TMP/tty" $'\r'"iterate: iteration 1 of 5 (20%)"$'\033[K' "40 columns: the time left dropped"
    TTY_COLS=24 on_tty "a long path, 24 columns" "$M" iterate "$d/demo.json" --iterations 5 -o "$TMP/it.txt"
    expect_grep "$TMP/tty" $'\r'"loading …"$'\033[K' "24 columns: the path and the stage dropped"
    fits "a long path at 24 columns" 24
    TTY_COLS=30 on_tty "iterate, 30 columns" "$M" iterate "$DEMO" --iterations 5 -o "$TMP/it.txt"
    expect_grep "$TMP/tty" $'\r'"iterate: iteration 1 of 5"$'\033[K' "30 columns: whole fields"
    fits "iterate at 30 columns" 30
}

# quiet ARGS...: memtris ARGS with stderr a file, then a pipe: status 0 and
# no progress line, nothing on stderr.
quiet() {
    local cmd="$*"
    run "$M" "$@"
    expect_rc 0 "$cmd (stderr a file)"
    if grep -q "$cr" "$ERR" "$OUT"; then bad "$cmd: a progress line in a file"; else ok; fi
    expect_empty "$ERR" "$cmd (stderr a file is empty)"
    "$M" "$@" 2>&1 >/dev/null | cat >"$TMP/pipe"
    expect_empty "$TMP/pipe" "$cmd (stderr a pipe is empty)"
}

# interrupted DESC FILE_KEPT CMD...: starts CMD (job control on, so that it
# takes SIGINT), waits until it is well under way, then sends SIGINT every
# 0.2 s (a first one may only stop a search) until it ends: it must end by
# SIGINT (status 130), print no more than the notice of a stopped search,
# and leave FILE_KEPT ("old content") and its folder without a temporary file.
interrupted() {
    local desc=$1 kept=$2 pid
    shift 2
    echo "old content" >"$kept"
    set -m
    "$@" >"$OUT" 2>"$ERR" &
    pid=$!
    set +m
    sleep 1
    for _ in $(seq 1 100); do
        kill -INT "$pid" 2>/dev/null || break
        sleep 0.2
    done
    wait "$pid"
    rc=$?
    expect_rc 130 "$desc: ended by SIGINT"
    if [ "$(cat "$kept")" = "old content" ]; then ok; else bad "$desc: the output file changed"; fi
    if ls -A "$(dirname "$kept")" | grep -q '^\.'; then bad "$desc: a temporary file was left"; else ok; fi
    if grep -v "^memtris: interrupted: the search stopped" "$ERR" | grep -q .; then
        bad "$desc: more than the notice on stderr"
    else ok; fi
}

group_sigint() {
    mkdir -p "$TMP/it" "$TMP/cmp"
    # 10^7 iterations of the demo: seconds of simulation at any speed here
    interrupted "iterate" "$TMP/it/out.txt" "$M" iterate "$DEMO" --iterations 10000000 \
        --max-seconds 0 -o "$TMP/it/out.txt"
    # every placer on every policy's schedule of 20000 nodes: exact alone has
    # 10 s for each of them
    "$M" gen random -n 20000 -o "$TMP/r20k.json"
    interrupted "compare" "$TMP/cmp/kept.txt" "$M" compare "$TMP/r20k.json" --placers all
    expect_empty "$OUT" "compare: interrupted, no table"
}

run_groups
