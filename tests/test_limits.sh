#!/usr/bin/env bash
# test_limits.sh: byte counts at the edges of what memtris writes: a
# memory-viz address past 2^63-1, a minimalloc size past 2^53-1, place's end
# and offsets near 2^53 and past it, the SVG of an arena near 2^63: each an
# error naming the buffer (status 1, nothing written, an old file kept) or a
# file that the matching reader reads back; and the round trips of place,
# plan -f minimalloc, plan -f json and gen on random problems
# (test_roundtrip.py, fixed seeds).
# Usage: test_limits.sh MEMTRIS SOURCE_DIR [GROUP]. Needs python3.
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 MEMTRIS SOURCE_DIR [GROUP]" >&2
    exit 2
fi
M=$1
SRC=$2
GROUP=${3:-all}
. "$(dirname "$0")/clilib.sh" limits

# big N SIZE FILE: a chain of N ALLOCs of SIZE bytes, never freed, named bI.
big() {
    python3 -c '
import json, sys
n, s = int(sys.argv[1]), int(sys.argv[2])
nodes = [{"Id": i, "Op": "ALLOC", "Size": s, "BufId": i, "Name": "b%d" % i} for i in range(n)]
json.dump({"Nodes": nodes, "Edges": [[i, i + 1] for i in range(n - 1)]}, open(sys.argv[3], "w"))
' "$@"
}

# refused DESC WANT FILE: status 1, WANT in the message, FILE still "old".
refused() {
    expect_rc 1 "$1"
    expect_grep "$ERR" "$2" "$1 (message)"
    if [ "$(cat "$3")" = old ]; then ok; else bad "$1: $3 changed"; fi
}

group_memviz() {
    # 1024 buffers of 2^53-1 bytes at --align 1: an arena of 2^63-1024
    # bytes, whose last block ends, from 0x7f0000000000, past 2^63-1.
    big 1024 9007199254740991 "$TMP/big.json"
    echo old >"$TMP/x.pkl"
    run "$M" plan "$TMP/big.json" --align 1 -f memory-viz -o "$TMP/x.pkl"
    refused "memory-viz past 2^63" "buffer 'b1023' (BufId 1023) at offset 9214364837600033793" \
        "$TMP/x.pkl"
    expect_grep "$ERR" "past 2^63-1 bytes" "memory-viz past 2^63 (why)"
    run "$M" plan "$TMP/big.json" --align 1 -f memory-viz -o - --svg "$TMP/x.svg"
    expect_rc 1 "memory-viz past 2^63 to standard output"
    expect_empty "$OUT" "memory-viz past 2^63 to standard output (nothing written)"
    # 1000 of them fit: every address positive, the last block's end the top.
    big 1000 9007199254740991 "$TMP/fits.json"
    run "$M" plan "$TMP/fits.json" --align 1 -f memory-viz -o "$TMP/fits.pkl"
    expect_rc 0 "memory-viz of 1000 x 2^53-1"
    py "memory-viz of 1000 x 2^53-1: addresses" '
import pickle, sys
d = pickle.load(open(sys.argv[1], "rb"))
seg = d["segments"][0]
base, top = seg["address"], seg["address"] + seg["total_size"]
assert base == 0x7f0000000000 and top < 2**63, (base, top)
for b in seg["blocks"]:
    assert base <= b["address"] and b["address"] + b["size"] <= top, b
ev = d["device_traces"][0]
assert all(base <= e["addr"] and e["addr"] + e["size"] <= top for e in ev)
assert max(e["addr"] for e in ev) == base + 999 * (2**53 - 1)
' "$TMP/fits.pkl"
}

group_minimalloc() {
    cat >"$TMP/two.json" <<'EOF'
{"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 9007199254740991, "BufId": 1, "Name": "big"},
           {"Id": 1, "Op": "FREE", "BufId": 1},
           {"Id": 2, "Op": "ALLOC", "Size": 5, "BufId": 2}],
 "Edges": [[0, 1], [1, 2]]}
EOF
    echo old >"$TMP/mm.csv"
    run "$M" plan "$TMP/two.json" -f minimalloc --align 1024 -o "$TMP/mm.csv"
    refused "minimalloc size past 2^53-1" \
        "buffer 'big' (BufId 1) of 9007199254740991 bytes takes 9007199254740992 at --align 1024" \
        "$TMP/mm.csv"
    # The other formats hold it.
    run "$M" plan "$TMP/two.json" -f json --align 1024
    expect_rc 0 "json of a span of 2^53"
    run "$M" plan "$TMP/two.json" -f minimalloc --align 1 -o "$TMP/mm.csv"
    expect_rc 0 "minimalloc of 2^53-1 at --align 1"
    run "$M" place "$TMP/mm.csv" -o "$TMP/mm2.csv"
    expect_rc 0 "minimalloc of 2^53-1 read back"
    expect_same "$TMP/mm.csv" "$TMP/mm2.csv" "minimalloc of 2^53-1 placed again"
}

group_place_end() {
    printf 'id,lower,end,size\na,0,9007199254740991,5\n' >"$TMP/end.csv"
    echo old >"$TMP/e.csv"
    run "$M" place "$TMP/end.csv" -o "$TMP/e.csv"
    refused "end 2^53-1" "end.csv:2:5: error: end '9007199254740991' is too large: at most 2^53-2" \
        "$TMP/e.csv"
    printf 'id,lower,end,size\na,0,9007199254740990,5\nb,9007199254740989,9007199254740990,9\n' \
        >"$TMP/end.csv"
    run "$M" place "$TMP/end.csv" -o "$TMP/e.csv"
    expect_rc 0 "end 2^53-2"
    expect_grep "$TMP/e.csv" "a,0,9007199254740991,5," "end 2^53-2 written as upper 2^53-1"
    run "$M" place "$TMP/e.csv" -o "$TMP/e2.csv"
    expect_rc 0 "end 2^53-2 read back"
    expect_same "$TMP/e.csv" "$TMP/e2.csv" "end 2^53-2 placed again"
}

group_place_offsets() {
    # Three buffers of 2^53-1 live at once: offsets up to 2^54-2, past 2^53-1.
    printf 'id,lower,upper,size\na,0,9007199254740991,9007199254740991\nb,0,9007199254740991,9007199254740991\nc,0,5,9007199254740991\n' \
        >"$TMP/o.csv"
    run "$M" place "$TMP/o.csv" -o "$TMP/o2.csv"
    expect_rc 0 "offsets past 2^53"
    expect_grep "$TMP/o2.csv" ",18014398509481982" "offsets past 2^53 (written)"
    run "$M" place "$TMP/o2.csv" -o "$TMP/o3.csv"
    expect_rc 0 "offsets past 2^53 read back"
    expect_same "$TMP/o2.csv" "$TMP/o3.csv" "offsets past 2^53 placed again"
    printf 'id,lower,upper,size,offset\na,0,1,1,9223372036854775807\n' >"$TMP/o4.csv"
    run "$M" place "$TMP/o4.csv"
    expect_rc 0 "offset 2^63-1 read"
    printf 'id,lower,upper,size,offset\na,0,1,1,9223372036854775808\n' >"$TMP/o4.csv"
    run "$M" place "$TMP/o4.csv"
    expect_rc 1 "offset 2^63"
    expect_grep "$ERR" "offset '9223372036854775808' is too large: at most 2^63-1" "offset 2^63 (why)"
}

group_svg() {
    big 1000 9007199254740991 "$TMP/fits.json"
    run "$M" plan "$TMP/fits.json" --align 1 --svg "$TMP/x.svg" -o /dev/null
    expect_rc 0 "svg of an arena near 2^63"
    py "svg of an arena near 2^63: coordinates" '
import re, sys, xml.etree.ElementTree as ET
text = open(sys.argv[1]).read()
ET.fromstring(text)
for m in re.finditer(r"\b(x|y|width|height)=\"([^\"]*)\"", text):
    v = float(m.group(2))
    assert -1 <= v <= 5000, m.group(0)
' "$TMP/x.svg"
}

group_roundtrip() {
    if python3 "$SRC/tests/test_roundtrip.py" "$M" 40 >"$TMP/rt.out" 2>&1; then ok
    else bad "round trips: $(tail -c 1500 "$TMP/rt.out")"; fi
}

run_groups
