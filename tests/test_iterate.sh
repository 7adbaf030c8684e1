#!/usr/bin/env bash
# test_iterate.sh: end-to-end checks of "memtris iterate": text and JSON (the
# numbers checked with python3), bad options each with its message and status
# 2, bad graphs status 1, the host backend's measurements, and --backend cuda
# where there is no device (as 'memtris replay' says it).
# Usage: test_iterate.sh MEMTRIS SOURCE_DIR [GROUP]. Prints "N passed, M failed" last.
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
. "$(dirname "$0")/clilib.sh" iterate

# The JSON's own consistency: factors in the scale, the needs at most the
# expected maximum (the schedule's peak at MAX, from 'memtris schedule'),
# totals from the rows, the elastic rule row by row.
# Python starts in about a second here: one python3 run checks every file.
CHECK_JSON='
import json, sys
def check(path, peak, n):
  d = json.load(open(path))
  assert d["iterations"] == n == len(d["per_iteration"]), "iterations"
  lo, hi = d["scale"]
  assert d["expected_max"] == peak if hi == 1 else True, ("expected_max", d["expected_max"], peak)
  names = [p["name"] for p in d["pools"]]
  assert names == ["static", "size-class", "elastic"], names
  rows = d["per_iteration"]
  for i, r in enumerate(rows):
      assert r["iteration"] == i + 1
      assert lo <= r["factor"] < hi or lo == hi, r["factor"]
      assert 0 <= r["need"] <= d["expected_max"], r
      assert r["static"]["capacity"] == d["expected_max"], r
  for p in d["pools"]:
      caps = [r[p["name"]]["capacity"] for r in rows]
      assert p["peak_capacity"] == max(caps), p
      w = sum(c - r["need"] for c, r in zip(caps, rows)) / n
      assert abs(p["mean_waste"] - w) <= 1e-6 * max(1, w), (p, w)
      assert p["reallocations"] == sum(r[p["name"]]["allocations"] for r in rows), p
      assert p["grows"] == sum(1 for r in rows if r[p["name"]]["grow"]), p
      assert p["shrinks"] == sum(r[p["name"]]["shrink"] for r in rows), p
  # the elastic pool, replayed from the needs
  cap = fl = (d["expected_max"] + 1) // 2
  idle = 0
  for r in rows:
      e, need = r["elastic"], r["need"]
      k = 0
      if need > cap:
          while cap < need:
              cap += (cap + 1) // 2
              k += 1
          idle = 0
      elif need <= 2 * cap // 3:
          idle += 1
          if idle == 10:
              to = max(-(-2 * cap // 3), fl, need)
              assert e["shrink"] == (to < cap), r
              cap, idle = to, 0
      else:
          idle = 0
      assert e["grow"] == k and e["capacity"] == cap, (r, cap, k)
  assert d["pools"][0]["reallocations"] == 1
  return d
'

group_text_json() {
    run "$M" schedule "$BERT" --format json
    cp "$OUT" "$TMP/sched.json"
    run "$M" schedule "$DEMO" --format json -p fifo
    cp "$OUT" "$TMP/fifo.json"
    run "$M" iterate "$BERT" --format json
    expect_rc 0 "iterate --format json"
    cp "$OUT" "$TMP/it.json"
    local i
    for i in 1 2; do # same seed, same numbers
        run "$M" iterate "$BERT" --format json --iterations 300 --scale 0.1:1 --seed 9
        expect_rc 0 "iterate --iterations 300 --scale 0.1:1 --seed 9"
        cp "$OUT" "$TMP/it2-$i.json"
    done
    run "$M" iterate "$BERT" --format json --iterations 300 --scale 0.1:1 --seed 10
    cp "$OUT" "$TMP/it3.json"
    run "$M" iterate "$DEMO" --format json --iterations 5 --scale 1:1 -p fifo
    cp "$OUT" "$TMP/it4.json"
    py "the JSON of iterate" "$CHECK_JSON"'
t = sys.argv[1]
peak = json.load(open(t + "/sched.json"))["peak"]
d = check(t + "/it.json", peak, 100)
assert d["policy"] == "priority" and d["seed"] == 1 and d["scale"] == [0.25, 1], "header"
assert d["backend"] is None and d["pools"][0]["peak_measured"] is None, "no backend"
a, b = check(t + "/it2-1.json", peak, 300), json.load(open(t + "/it2-2.json"))
e = a["pools"][2]
assert e["grows"] > 0 and e["shrinks"] > 0, ("the elastic pool grows and shrinks", e)
assert a["per_iteration"] == b["per_iteration"] and a["pools"] == b["pools"], "deterministic"
c = json.load(open(t + "/it3.json"))
assert [r["factor"] for r in a["per_iteration"]] != [r["factor"] for r in c["per_iteration"]]
fifo = json.load(open(t + "/fifo.json"))["peak"]
f = check(t + "/it4.json", fifo, 5)
assert f["policy"] == "fifo" and all(r["need"] == fifo for r in f["per_iteration"]), "scale 1:1"
' "$TMP"
    # text: the tables, the rows with events, --all, -o
    run "$M" iterate "$BERT" --iterations 300 --scale 0.1:1 --seed 9
    expect_rc 0 "iterate (text)"
    expect_grep "$OUT" "expected maximum" "text: the expected maximum"
    expect_grep "$OUT" "elastic grow x1.5^" "text: an elastic grow"
    expect_grep "$OUT" "elastic shrink /1.5" "text: an elastic shrink"
    expect_grep "$OUT" "peak capacity" "text: the totals"
    expect_grep "$OUT" "--all shows every one" "text: rows left out said"
    local rows
    rows=$(grep -cE '^ +[0-9]+ +[0-9]\.[0-9]{4} ' "$OUT")
    if [ "$rows" -lt 300 ] && [ "$rows" -ge 2 ]; then ok; else bad "text: some rows ($rows)"; fi
    run "$M" iterate "$BERT" --iterations 300 --scale 0.1:1 --seed 9 --all -o "$TMP/all.txt"
    expect_rc 0 "iterate --all -o"
    expect_empty "$OUT" "-o: nothing on stdout"
    rows=$(grep -cE '^ +[0-9]+ +[0-9]\.[0-9]{4} ' "$TMP/all.txt")
    if [ "$rows" -eq 300 ]; then ok; else bad "--all: every row ($rows)"; fi
    run "$M" iterate --help
    expect_rc 0 "iterate --help"
    expect_grep "$OUT" "--scale MIN:MAX" "--help names --scale"
    run "$M" --help
    expect_grep "$OUT" "iterate FILE" "memtris --help lists iterate"
}

# usage_error DESC WORDS ARGS...: status 2, WORDS in the message, the hint.
usage_error() {
    local desc=$1 words=$2
    shift 2
    run "$M" iterate "$@"
    expect_rc 2 "$desc"
    expect_empty "$OUT" "$desc (stdout)"
    expect_grep "$ERR" "$words" "$desc (message)"
    expect_grep "$ERR" "Try 'memtris iterate --help'" "$desc (usage hint)"
}

group_bad_input() {
    usage_error "--scale MIN > MAX" "--scale '1:0.5': MIN is above MAX" "$DEMO" --scale 1:0.5
    usage_error "--scale MIN 0" "--scale '0:1': MIN must be above 0" "$DEMO" --scale 0:1
    usage_error "--scale MIN < 0" "MIN must be above 0" "$DEMO" --scale -1:1
    usage_error "--scale one number" "--scale needs MIN:MAX" "$DEMO" --scale 0.5
    usage_error "--scale words" "--scale 'a:b': MIN and MAX must be finite numbers" "$DEMO" --scale a:b
    usage_error "--scale nan" "must be finite numbers" "$DEMO" --scale nan:1
    usage_error "--scale inf" "must be finite numbers" "$DEMO" --scale 0.5:inf
    usage_error "--scale empty MAX" "must be finite numbers" "$DEMO" --scale 0.5:
    usage_error "--iterations 0" "--iterations needs a whole number from 1" "$DEMO" --iterations 0
    usage_error "--iterations -5" "--iterations needs a whole number from 1" "$DEMO" --iterations -5
    usage_error "--iterations x" "not 'x'" "$DEMO" --iterations x
    usage_error "--iterations too many" "to 10000000" "$DEMO" --iterations 10000001
    usage_error "--seed -1" "--seed needs a whole number" "$DEMO" --seed -1
    usage_error "unknown backend" "unknown backend 'gpu' (cuda, host)" "$DEMO" --backend gpu
    usage_error "unknown format" "unknown format 'csv' (text or json)" "$DEMO" --format csv
    usage_error "missing FILE" "missing FILE"
    usage_error "--scale without a value" "option '--scale' needs a value" "$DEMO" --scale
    run "$M" iterate "$TMP/none.json"
    expect_rc 1 "a missing file"
    echo '{"Nodes": [' >"$TMP/broken.json"
    run "$M" iterate "$TMP/broken.json"
    expect_rc 1 "a broken graph"
    expect_grep "$ERR" "broken.json" "a broken graph: the file named"
    expect_empty "$OUT" "a broken graph (stdout)"
    # The size-class pool past 2^63-1 bytes: a 2^62 block, then three 2^61
    # ones live together (the live peak itself stays under 2^62).
    printf '%s' '{"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 9007199254740991, "BufId": 1},
      {"Id": 1, "Op": "FREE", "BufId": 1},
      {"Id": 10, "Op": "ALLOC", "Size": 4503599627370495, "BufId": 10},
      {"Id": 11, "Op": "ALLOC", "Size": 4503599627370495, "BufId": 11},
      {"Id": 12, "Op": "ALLOC", "Size": 4503599627370495, "BufId": 12},
      {"Id": 20, "Op": "FREE", "BufId": 10}, {"Id": 21, "Op": "FREE", "BufId": 11},
      {"Id": 22, "Op": "FREE", "BufId": 12}],
     "Edges": [[0, 1], [1, 10], [1, 11], [1, 12], [10, 20], [11, 21], [12, 22],
       [10, 21], [10, 22], [11, 20], [11, 22], [12, 20], [12, 21]]}' >"$TMP/ovf.json"
    run "$M" iterate "$TMP/ovf.json" --scale 300:300 --iterations 2
    expect_rc 1 "the size-class pool past 2^63-1 bytes"
    expect_grep "$ERR" "iteration 1 (factor 300): the size-class pool passes 2^63-1 bytes at Nodes[" "the overflow named"
    expect_empty "$OUT" "the overflow (stdout)"
}

# Big buffers so that a reading is mostly the pools' memory.
group_host() {
    # 2, 6, 4 and 3 MiB, one after the other
    cat >"$TMP/big.json" <<'JSONEOF'
{"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 2097152, "BufId": 1},
           {"Id": 1, "Op": "FREE", "BufId": 1},
           {"Id": 2, "Op": "ALLOC", "Size": 6291456, "BufId": 2},
           {"Id": 3, "Op": "FREE", "BufId": 2},
           {"Id": 4, "Op": "ALLOC", "Size": 4194304, "BufId": 3},
           {"Id": 5, "Op": "FREE", "BufId": 3},
           {"Id": 6, "Op": "ALLOC", "Size": 3145728, "BufId": 4},
           {"Id": 7, "Op": "FREE", "BufId": 4}],
 "Edges": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7]]}
JSONEOF
    run "$M" iterate "$TMP/big.json" --backend host --iterations 12 --format json
    expect_rc 0 "--backend host"
    cp "$OUT" "$TMP/host.json"
    # Each pool's blocks are mapped and populated (mmap from 64 KiB up): the
    # reading is the capacity, within 1 MiB and 2% (page rounding, the
    # process's own pages); not under a sanitizer (its own pages move it).
    py "host: measured numbers present, near the capacity" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["backend"] == "host" and d["device"].startswith("host"), d["device"]
assert all(isinstance(p["peak_measured"], int) for p in d["pools"])
for r in d["per_iteration"]:
    for p in ("static", "size-class", "elastic"):
        c, m = r[p]["capacity"], r[p]["measured"]
        assert isinstance(m, int), (r, p)
        assert sys.argv[2] or abs(m - c) <= (1 << 20) + c // 50, (r["iteration"], p, c, m)
' "$TMP/host.json" "${MEMTRIS_TEST_SANITIZER:-}"
    run "$M" iterate "$TMP/big.json" --backend host --iterations 3
    expect_rc 0 "--backend host (text)"
    expect_grep "$OUT" "measured on       host" "host text: the device"
    expect_grep "$OUT" "peak measured" "host text: the measured column"
}

group_cuda() {
    # --backend cuda: this machine may have no GPU, driver or CUDA build; then
    # status 1 and one line saying why, as 'memtris replay --backend cuda'.
    run "$M" iterate "$DEMO" --backend cuda --iterations 3 --format json
    if [ "$rc" -eq 0 ]; then
        expect_grep "$OUT" '"backend": "cuda"' "--backend cuda ran on a device"
        return
    fi
    expect_rc 1 "--backend cuda without a device"
    expect_empty "$OUT" "--backend cuda without a device (stdout)"
    if [ "$(wc -l <"$ERR")" -eq 1 ]; then ok; else bad "--backend cuda: one line on stderr"; fi
    expect_grep "$ERR" "memtris iterate: cuda backend: " "--backend cuda: the backend is named"
    echo "SKIP (part): needs a CUDA device: --backend cuda is checked to refuse (scripts/gpu-check runs it on one)"
    cp "$ERR" "$TMP/iterate.err"
    run "$M" replay "$DEMO" --backend cuda
    sed 's/memtris replay: /memtris iterate: /' "$ERR" >"$TMP/replay.err"
    expect_same "$TMP/iterate.err" "$TMP/replay.err" "--backend cuda: the words of replay"
}

run_groups
