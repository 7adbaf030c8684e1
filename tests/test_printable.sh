#!/usr/bin/env bash
# test_printable.sh: no byte of user text reaches a terminal raw. Escape
# sequences (ESC [?1049h, ESC ]2;pwned BEL, a C1 CSI, a CR) and ill-formed
# UTF-8 go in through every way a command echoes input: a node's Name and Op
# in a JSON graph (schedule, plan -f text and csv, compare, validate), a CSV
# field (place's errors), a file name, option values in usage errors. What
# comes out on stdout and stderr is valid UTF-8 with no control character
# but the line break, the escapes shown as \xNN; plan -f json keeps the
# name exactly. Usage: test_printable.sh MEMTRIS [GROUP]. Needs python3.
set -u

if [ $# -lt 1 ]; then
    echo "usage: $0 MEMTRIS [GROUP]" >&2
    exit 2
fi
M=$1
GROUP=${2:-all}
. "$(dirname "$0")/clilib.sh" printable

# The hostile text: alternate screen, window title, C1 CSI, a carriage return.
EVIL_JSON='\u001b[?1049h\u001b]2;pwned\u0007\u009b31m\rx'
EVIL_RAW=$'\e[?1049h\e]2;pwned\a\xc2\x9b31m\rx'
# How memtris shows it: each control byte as \xNN.
EVIL_SHOWN='\x1b[?1049h\x1b]2;pwned\x07\xc2\x9b31m\x0dx'

# clean DESC: keeps stdout and stderr of the last run, for check_clean to
# find each valid UTF-8 with no control character (C0 but the line break,
# DEL, C1): no raw ESC, BEL or CSI. One python3 run checks them all.
nclean=0
clean() {
    nclean=$((nclean + 1))
    mkdir -p "$TMP/clean"
    cp "$OUT" "$TMP/clean/$nclean.out"
    cp "$ERR" "$TMP/clean/$nclean.err"
    printf '%s\n' "$1" >"$TMP/clean/$nclean.desc"
}
CHECK_CLEAN='
import os, sys
d = sys.argv[1]
for n in sorted(int(f[:-5]) for f in os.listdir(d) if f.endswith(".desc")):
    desc = open(os.path.join(d, "%d.desc" % n)).read().strip()
    why = None
    for part in ("out", "err"):
        data = open(os.path.join(d, "%d.%s" % (n, part)), "rb").read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            why = "std%s is not UTF-8: %s" % (part, e)
            break
        bad = [i for i, ch in enumerate(text)
               if (ord(ch) < 0x20 and ch != "\n") or 0x7f <= ord(ch) < 0xa0]
        if bad:
            i = bad[0]
            why = "std%s has U+%04X at %d: %r" % (part, ord(text[i]), i, text[max(0, i - 30):i + 30])
            break
    print("ok" if why is None else "FAIL: %s: %s" % (desc, why))
'
# check_clean: one check per clean since the last check_clean.
check_clean() {
    local line
    while IFS= read -r line; do
        if [ "$line" = ok ]; then ok; else fail=$((fail + 1)); echo "$line"; fi
    done < <(python3 -c "$CHECK_CLEAN" "$TMP/clean" 2>&1 || echo "FAIL: the check itself")
    rm -rf "$TMP/clean"
    nclean=0
}

# A graph whose ALLOC, compute node and FREE carry the text in Name and Op.
write_graph() {
    cat >"$TMP/evil.json" <<JSON
{"Nodes": [
  {"Id": 0, "Op": "ALLOC", "Size": 100, "BufId": 1, "Name": "$EVIL_JSON"},
  {"Id": 1, "Op": "Conv$EVIL_JSON", "Name": "n$EVIL_JSON", "Inputs": [1]},
  {"Id": 2, "Op": "FREE", "BufId": 1}
],
"Edges": [[0, 1], [1, 2]]}
JSON
}

group_graph() {
    write_graph
    local g=$TMP/evil.json
    run "$M" schedule "$g"
    expect_rc 0 "schedule text"
    clean "schedule text"
    expect_grep "$OUT" '\x1b[?1049h' "schedule text shows the escape"
    run "$M" schedule -f csv "$g"
    expect_rc 0 "schedule csv"
    clean "schedule csv"
    expect_grep "$OUT" "$EVIL_SHOWN" "schedule csv shows the whole name"
    run "$M" plan "$g"
    expect_rc 0 "plan text"
    clean "plan text"
    expect_grep "$OUT" "$EVIL_SHOWN" "plan text shows the whole name"
    run "$M" plan -f csv "$g"
    expect_rc 0 "plan csv"
    clean "plan csv"
    expect_grep "$OUT" "$EVIL_SHOWN" "plan csv shows the whole name"
    run "$M" compare "$g"
    expect_rc 0 "compare"
    clean "compare"
    run "$M" compare --placers all "$g"
    expect_rc 0 "compare --placers all"
    clean "compare --placers all"
    run "$M" validate "$g"
    expect_rc 0 "validate"
    clean "validate"
    # JSON and pickle stay exact: the name and the file name read back are
    # the ones written (JSON escapes C0, DEL and C1 as \u00XX)
    local odd="$TMP/odd"$'\e]2;pwned\a\r\xc2\x9b'".json"
    cp "$g" "$odd"
    run "$M" compare -f json "$odd"
    expect_rc 0 "compare json"
    clean "compare json"
    cp "$OUT" "$TMP/compare.json"
    run "$M" schedule -f json "$odd"
    expect_rc 0 "schedule json"
    clean "schedule json"
    cp "$OUT" "$TMP/schedule.json"
    run "$M" plan -f memory-viz -o "$TMP/plan.pickle" "$odd"
    expect_rc 0 "plan memory-viz"
    py "JSON and pickle keep the names exactly" '
import json, pickle, sys
def strings(v):
    if isinstance(v, (str, bytes)): yield v
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from strings(k)
            yield from strings(x)
    elif isinstance(v, (list, tuple)):
        for x in v: yield from strings(x)
tmp, name, path = sys.argv[1], sys.argv[2], sys.argv[3]
graph = json.load(open(tmp + "/compare.json", encoding="utf-8"))["graph"]
if graph != path: sys.exit("compare json graph %r, expected %r" % (graph, path))
json.load(open(tmp + "/schedule.json", encoding="utf-8"))
with open(tmp + "/plan.pickle", "rb") as f:
    found = set(strings(pickle.load(f)))
if name not in found: sys.exit("the name is not in the pickle: %r" % sorted(map(repr, found))[:20])
' "$TMP" "$EVIL_RAW" "$odd"
    # A file name that is not UTF-8 is written in JSON with U+FFFD for each
    # byte that is not text: still valid JSON (it was written raw)
    local notutf=$TMP/g$'\xff\xfe'.json
    cp "$g" "$notutf"
    run "$M" compare -f json "$notutf"
    expect_rc 0 "compare json, a file name not UTF-8"
    py "a file name not UTF-8 in valid JSON" '
import json, sys
graph = json.load(open(sys.argv[1], encoding="utf-8", errors="strict"))["graph"]
if not graph.endswith("/g\ufffd\ufffd.json"): sys.exit("graph %r" % graph)
' "$OUT"
    check_clean
}

group_graph_errors() {
    # an error naming a node's Op (a FREE without BufId, its Op the text)
    printf '{"Nodes": [{"Id": 0, "Op": "FREE\\u001b]2;pwned\\u0007"}], "Edges": []}\n' >"$TMP/op.json"
    run "$M" validate "$TMP/op.json"
    clean "validate, a bad node's Op"
    # ill-formed UTF-8 and raw control bytes inside the JSON text
    printf '{"Nodes": [{"Id": 0, "Op": "X", "Name": "a\xffb"}], "Edges": []}\n' >"$TMP/bad.json"
    run "$M" validate "$TMP/bad.json"
    expect_rc 1 "validate, invalid UTF-8"
    clean "validate, invalid UTF-8"
    expect_grep "$ERR" '\xff' "the bad byte shown"
    printf '{"Nodes": [{"Id": 0, "Op": "X\e[?1049h\a\r\xc2\x9b"}], "Edges": []}\n' >"$TMP/raw.json"
    for cmd in validate schedule plan compare; do
        run "$M" $cmd "$TMP/raw.json"
        expect_rc 1 "$cmd, raw controls in a string"
        clean "$cmd, raw controls in a string"
    done
    # a file name with escapes in it: not found, and found with an error in it
    run "$M" validate "$TMP/bad"$'\e[31m\e]2;pwned\a\xff'"name.json"
    expect_rc 1 "validate, missing file with escapes in its name"
    clean "validate, missing file with escapes in its name"
    expect_grep "$ERR" 'bad\x1b[31m\x1b]2;pwned\x07\xffname.json' "the file name shown"
    local odd="$TMP/odd"$'\e]2;pwned\a\r'".json"
    cp "$TMP/bad.json" "$odd"
    for cmd in validate schedule plan compare view; do
        run "$M" $cmd "$odd"
        clean "$cmd, a bad file with escapes in its name"
    done
    write_graph
    cp "$TMP/evil.json" "$odd"
    for cmd in validate schedule plan compare iterate; do
        run "$M" $cmd "$odd"
        expect_rc 0 "$cmd, a good file with escapes in its name"
        clean "$cmd, a good file with escapes in its name"
    done
    run "$M" "$odd" # a file as the command: the TUI, with no terminal here
    clean "memtris FILE with escapes in its name"
    check_clean
}

group_csv() {
    printf 'id,lower,upper,size\nb1,0,3,4\nb2,0,3,\e[?1049h\e]2;pwned\a\xc2\x9b\r\n' >"$TMP/size.csv"
    run "$M" place "$TMP/size.csv"
    expect_rc 1 "place, a bad size"
    clean "place, a bad size"
    expect_grep "$ERR" '\x1b[?1049h' "the field shown"
    printf 'id,lower,upper,size\nb\e]2;pwned\a,0,3,4\n' >"$TMP/id.csv"
    run "$M" place "$TMP/id.csv"
    expect_rc 1 "place, a bad id"
    clean "place, a bad id"
    printf 'id,lower,upper,size,\e[2J\xff\n' >"$TMP/head.csv"
    run "$M" place "$TMP/head.csv"
    expect_rc 1 "place, a bad column"
    clean "place, a bad column"
    printf 'id,lower,upper,size\n"b1\e[2J",0,3,4\n' >"$TMP/quoted.csv"
    run "$M" place "$TMP/quoted.csv"
    clean "place, a quoted field"
    printf 'id,lower,upper,size\nb1,0,3,4\nb2,x\xe4\xb8,3,4\n' >"$TMP/cut.csv"
    run "$M" place "$TMP/cut.csv"
    expect_rc 1 "place, a cut UTF-8 sequence"
    clean "place, a cut UTF-8 sequence"
    # a long field, cut for the message at a character
    { printf 'id,lower,upper,size\nb1,0,3,'; for _ in $(seq 40); do printf '\xe5\x8d\xb7\e'; done; printf '\n'; } >"$TMP/long.csv"
    run "$M" place "$TMP/long.csv"
    expect_rc 1 "place, a long bad field"
    clean "place, a long bad field"
    check_clean
}

group_options() {
    set -f # the text has glob characters
    local e=$'\e]2;pwned\a\e[?1049h\xc2\x9b\xff\r'
    local g=$TMP/evil.json
    write_graph
    printf 'id,lower,upper,size\nb1,0,3,4\n' >"$TMP/ok.csv"
    local cases=(
        "$e"
        "--$e"
        "schedule $g -p $e"
        "schedule $g -f $e"
        "schedule $g --$e"
        "plan $g --align $e"
        "plan $g --placer $e"
        "plan $g -f $e"
        "plan $g --rank-by $e"
        "plan $g --time-limit $e"
        "plan $g --capacity $e"
        "compare $g --placers $e"
        "compare $g --policies $e"
        "compare $g --alpha $e"
        "place $TMP/ok.csv --placer $e"
        "place $TMP/ok.csv --max-states $e"
        "gen $e"
        "gen chain --nodes $e"
        "gen chain --seed $e"
        "iterate $g --scale $e"
        "iterate $g --iterations $e"
        "replay $g --backend $e"
        "replay $g --mode $e"
        "view $g --placer $e"
        "validate $g $e"
    )
    local c
    for c in "${cases[@]}"; do
        # split on spaces (the text has none), not globbed
        # shellcheck disable=SC2086
        run "$M" $c
        if [ "$rc" -eq 0 ]; then bad "memtris ${c//[^[:print:]]/?}: status 0"; else ok; fi
        clean "memtris ${c//[^[:print:]]/?}"
    done
    set +f
    check_clean
}

run_groups
