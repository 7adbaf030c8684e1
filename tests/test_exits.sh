#!/usr/bin/env bash
# test_exits.sh: one exit status per kind of error, for every command, and no
# output when it fails: a usage error (an unknown option, a missing value, an
# empty one, a bad number, a missing or an extra operand) is status 2, bad
# input or a failure (a file that cannot be read or parsed, a graph that fails
# validation, an output that cannot be written) status 1; either way nothing
# on standard output, no output file changed and no temporary file left.
# Usage: test_exits.sh MEMTRIS [GROUP]   (GROUP: one per command, as below;
# all of them when omitted). Prints "N passed, M failed" last.
set -u

if [ $# -lt 1 ]; then
    echo "usage: $0 MEMTRIS [GROUP]" >&2
    exit 2
fi
M=$1
GROUP=${2:-all}
. "$(dirname "$0")/clilib.sh" exits

# The inputs: a graph and a placement problem, each also malformed (not
# JSON, not CSV) and invalid (a cycle; an empty lifetime), and a folder with
# an old output file.
G=$TMP/g.json
cat >"$G" <<'EOF'
{"Nodes": [
  {"Id": 0, "Op": "ALLOC", "Size": 100, "BufId": 1, "Name": "x"},
  {"Id": 1, "Op": "Conv", "Inputs": [1]},
  {"Id": 2, "Op": "ALLOC", "Size": 200, "BufId": 2, "Name": "y"},
  {"Id": 3, "Op": "Relu", "Inputs": [1, 2], "Latency": 1},
  {"Id": 4, "Op": "FREE", "BufId": 1},
  {"Id": 5, "Op": "FREE", "BufId": 2}
],
"Edges": [[0, 1], [1, 2], [2, 3], [3, 4], [3, 5]]}
EOF
MALFORMED=$TMP/malformed.json
printf '{"Nodes": [\n  {"Id": 0, "Op": bogus}\n], "Edges": []}\n' >"$MALFORMED"
INVALID=$TMP/invalid.json
cat >"$INVALID" <<'EOF'
{"Nodes": [
  {"Id": 0, "Op": "ALLOC", "Size": 100, "BufId": 1},
  {"Id": 1, "Op": "Conv", "Inputs": [1]},
  {"Id": 2, "Op": "FREE", "BufId": 1}
],
"Edges": [[0, 1], [1, 2], [2, 0]]}
EOF
CSV=$TMP/p.csv
printf 'id,lower,upper,size\n0,0,5,10\n1,3,9,20\n' >"$CSV"
BADCSV=$TMP/malformed.csv
printf 'id,lower,upper,size\n0,0,5,10\n1,3,x9,20\n' >"$BADCSV"
BADPROB=$TMP/invalid.csv
printf 'id,lower,upper,size\n0,5,5,10\n1,3,9,20\n' >"$BADPROB"
NONE=$TMP/none.json
D=$TMP/outs
mkdir "$D"
OLD=$D/old.out
NODIR=$D/no/such/folder/x.out

# status WANT DESC ARGS...: memtris ARGS (stdin empty) exits WANT, says why
# on stderr, writes nothing on stdout, leaves the old output file as it was
# and no temporary file in its folder.
status() {
    local want=$1 desc=$2
    shift 2
    echo old >"$OLD"
    "$M" "$@" </dev/null >"$OUT" 2>"$ERR"
    rc=$?
    expect_rc "$want" "$desc"
    expect_empty "$OUT" "$desc (stdout)"
    expect_nonempty "$ERR" "$desc (a message)"
    if [ "$(cat "$OLD")" = old ]; then ok; else bad "$desc: the old output file changed"; fi
    local left
    left=$(find "$D" -mindepth 1 ! -name old.out | head -3)
    if [ -z "$left" ]; then ok; else bad "$desc: left in the output folder: $left"; fi
    rm -rf "${D:?}"/* "$D"/.[!.]* 2>/dev/null
}

# usage CMD ARGS...: a usage error, with the command's hint.
usage() {
    status 2 "$*" "$@"
    local cmd=$1
    case $cmd in -*) cmd=view ;; esac # "memtris --no-such-option" is the UI's
    hint "$cmd" "$*"
}

# hint CMD DESC: $ERR is one usage error of CMD: its first line names the
# command ("memtris CMD: unknown policy 'foo' (known: ...)"), its last is
# the hint, and nothing else is said.
hint() {
    local first last lines
    first=$(head -n 1 "$ERR")
    last=$(tail -n 1 "$ERR")
    lines=$(wc -l <"$ERR")
    if [[ $first == "memtris $1: "?* ]]; then ok; else bad "$2: '$first' does not name 'memtris $1'"; fi
    if [ "$last" = "Try 'memtris $1 --help' for more information." ]; then ok
    else bad "$2: the last line '$last' is not the hint"; fi
    if [ "$lines" -eq 2 ]; then ok; else bad "$2: $lines lines, expected the message and the hint"; fi
}

# operands CMD VALUE_OPTION ARGS...: the errors every command with a FILE
# has: an unknown option, VALUE_OPTION without its value, FILE missing or
# twice, then a missing, a malformed and an invalid FILE (bad input). ARGS
# go after FILE (as -b host for replay).
operands() {
    local cmd=$1 opt=$2 in=$G bad=$MALFORMED inv=$INVALID
    shift 2
    if [ "$cmd" = place ]; then in=$CSV bad=$BADCSV inv=$BADPROB; fi
    usage "$cmd" "$in" --no-such-option "$@"
    [ -n "$opt" ] && usage "$cmd" "$in" "$@" "$opt"
    usage "$cmd" "$@"
    usage "$cmd" "$in" "$in" "$@"
    status 1 "$cmd: a missing file" "$cmd" "$NONE" "$@"
    status 1 "$cmd: a malformed file" "$cmd" "$bad" "$@"
    status 1 "$cmd: an invalid input" "$cmd" "$inv" "$@"
    # a usage error is said before the input is read
    usage "$cmd" "$bad" --no-such-option "$@"
}

# outputs CMD OPT IN ARGS...: the output option OPT: empty (usage), a path
# with no folder, a folder (failures) and, with a bad input too, the input's
# error; the old file kept every time.
outputs() {
    local cmd=$1 opt=$2 in=$3
    shift 3
    usage "$cmd" "$in" "$opt" "" "$@"
    status 1 "$cmd $opt: no such folder" "$cmd" "$in" "$opt" "$NODIR" "$@"
    status 1 "$cmd $opt: a folder" "$cmd" "$in" "$opt" "$TMP" "$@"
    status 1 "$cmd $opt: a bad input" "$cmd" "$MALFORMED" "$opt" "$OLD" "$@"
    if [ -w /dev/full ]; then
        status 1 "$cmd $opt: a full device" "$cmd" "$in" "$opt" /dev/full "$@"
    fi
}

# ------------------------------------------------------------------ groups

group_schedule() {
    operands schedule --policy
    usage schedule "$G" --format ""
    usage schedule "$G" --policy ""
    usage schedule "$G" --time-limit abc
    usage schedule "$G" --max-states ""
    usage schedule "$G" --alpha 2x
    usage schedule "$G" --queue-order ""
}

group_compare() {
    operands compare --placers
    usage compare "$G" --policies ""
    usage compare "$G" --placers ""
    usage compare "$G" --align 3
    usage compare "$G" --max-states -1
    usage compare "$G" --svg x.svg # without --pareto
    usage compare "$G" --pareto --policies fifo
    status 1 "compare --pareto: a malformed file" compare --pareto "$MALFORMED"
    outputs compare --svg "$G" --pareto
}

group_plan() {
    operands plan --placer
    usage plan "$G" --placer ""
    usage plan "$G" --align x
    usage plan "$G" --capacity 1Q
    usage plan "$G" --time-limit 0
    usage plan "$G" --rank-by ""
    outputs plan -o "$G"
    outputs plan --svg "$G"
    # one output that cannot be written: the other is not written either
    status 1 "plan: -o fine, --svg in no folder" plan "$G" -o "$OLD" --svg "$NODIR"
    status 1 "plan: --svg fine, -o in no folder" plan "$G" --svg "$OLD" -o "$NODIR"
    if [ -w /dev/full ]; then
        status 1 "plan: -o fine, --svg full" plan "$G" -o "$OLD" --svg /dev/full
        status 1 "plan: --svg fine, -o full" plan "$G" --svg "$OLD" -o /dev/full
    fi
}

group_place() {
    operands place --placer
    usage place "$CSV" --format ""
    usage place "$CSV" --align 0
    usage place "$CSV" --time-limit -1
    usage place "$CSV" --capacity ""
    outputs place -o "$CSV"
    outputs place --svg "$CSV"
    status 1 "place: -o fine, --svg in no folder" place "$CSV" -o "$OLD" --svg "$NODIR"
}

group_replay() {
    operands replay --mode -b host
    usage replay "$G" -b host --mode ""
    usage replay "$G" --backend ""
    usage replay "$G" -b host --alpha nan
    usage replay "$G" -b host --mode async
    outputs replay -o "$G" -b host
}

group_iterate() {
    operands iterate --iterations
    usage iterate "$G" --backend ""
    usage iterate "$G" --iterations 0
    usage iterate "$G" --iterations ""
    usage iterate "$G" --seed -3
    usage iterate "$G" --scale 1:x
    outputs iterate -o "$G"
}

group_validate() {
    operands validate ""
    # a \u0000 in a string (issue 45: "weight\u0000x" was read as "weight"): bad input, at its place
    printf '{"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 4, "BufId": 1, "Category": "weight\\u0000x"},\n' \
        >"$TMP/nul.json"
    printf '  {"Id": 1, "Op": "FREE", "BufId": 1}], "Edges": [[0, 1]]}\n' >>"$TMP/nul.json"
    for cmd in validate schedule plan; do
        status 1 "$cmd: a NUL in a string" "$cmd" "$TMP/nul.json"
        expect_grep "$ERR" "nul.json:1:79: error: \\u0000 (a NUL character) inside a string" \
            "$cmd: a NUL in a string: its line and column"
    done
}

group_gen() {
    usage gen chain --no-such-option
    usage gen chain --nodes
    usage gen
    usage gen chain chain
    usage gen nokind
    usage gen chain --nodes ""
    usage gen chain --nodes 1e3
    usage gen chain --seed -1
    usage gen chain --streams 0
    usage gen packing --capacity ""
    usage gen packing --format ""
    usage gen chain -o ""
    status 1 "gen -o: no such folder" gen chain -o "$NODIR"
    status 1 "gen -o: a folder" gen chain -o "$TMP"
    if [ -w /dev/full ]; then status 1 "gen -o: a full device" gen chain -o /dev/full; fi
}

# The UI: its usage errors are said before it looks for a terminal (there
# is none here: status 1) or reads a file.
group_view() {
    usage view "$G" --no-such-option
    usage view "$G" --policy
    usage view "$G" "$G"
    usage view "$G" --policy ""
    usage view "$G" --compare ""
    usage view "$G" --placer ""
    usage view "$G" --replay ""
    usage view "$G" --iterations x
    usage view "$G" --time-limit ""
    usage view "$MALFORMED" --no-such-option
    usage view "$G" --replay "$MALFORMED" --policy nope
    usage view "$G" --replay "$MALFORMED" --placer nope
    status 1 "view: a missing saved replay" view "$G" --replay "$NONE"
    status 1 "view: a malformed saved replay" view "$G" --replay "$MALFORMED"
    status 1 "view: no terminal" view "$G"
}

group_main() {
    status 2 "an unknown command" nosuchcommand
    usage --no-such-option
    # a failure to write standard output is one too (cli_main)
    if [ -w /dev/full ]; then
        "$M" --help >/dev/full 2>"$ERR"
        rc=$?
        expect_rc 1 "--help > /dev/full"
    fi
}

# Every command that memtris --help lists, each usage error that it can
# have of those every command shares (an unknown option, a missing value, a
# missing or an extra operand, an unknown format, policy or placer): the
# command named first, the hint last.
group_hints() {
    local cmds cmd in n=0 h
    # "view:[FILE] schedule:FILE ...": each command and its operand
    cmds=$("$M" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) \([^ ]*\) .*/\1:\2/p')
    for cmd in $cmds; do
        local operand=${cmd#*:}
        cmd=${cmd%%:*}
        n=$((n + 1))
        in=$G
        [ "$cmd" = place ] && in=$CSV
        [ "$cmd" = gen ] && in=chain
        h=$("$M" "$cmd" --help)
        usage "$cmd" "$in" --no-such-option
        usage "$cmd" "$in" -Z
        usage "$cmd" "$in" "$in"
        [[ $operand == "["* ]] || usage "$cmd" # an optional operand: view's demo
        if [[ $h == *"--format "* ]]; then usage "$cmd" "$in" --format nope; fi
        if [[ $h == *"--policy "* ]]; then
            usage "$cmd" "$in" --policy nope
            expect_grep "$ERR" "memtris $cmd: unknown policy 'nope' (known: fifo, priority," "$cmd: the policies"
        fi
        if [[ $h == *"--policies "* ]]; then
            usage "$cmd" "$in" --policies fifo,nope
            expect_grep "$ERR" "memtris $cmd: unknown policy 'nope' (known: fifo, priority," "$cmd: the policies"
        fi
        if [[ $h == *"--placers "* ]]; then usage "$cmd" "$in" --placers nope; fi
        if [[ $h == *"--placer "* ]]; then
            [ "$cmd" = replay ] && set -- --mode arena -b host || set --
            usage "$cmd" "$in" --placer nope "$@"
            expect_grep "$ERR" "memtris $cmd: unknown placer 'nope' (known: first-fit," "$cmd: the placers"
        fi
        if [[ $h == *"--backend "* ]]; then usage "$cmd" "$in" --backend nope; fi
    done
    if [ "$n" -ge 9 ]; then ok; else rc=0 bad "memtris --help lists $n commands: $cmds"; fi
    status 2 "an unknown command" nosuchcommand
    if [ "$(tail -n 1 "$ERR")" = "Try 'memtris --help' for more information." ]; then ok
    else bad "an unknown command: no hint"; fi
}

# ------------------------------------------------------------------ driver

run_groups
