#!/usr/bin/env bash
# test_budget_exact.sh: budgets, bandwidths and sizes in exact integers end to end (issue 45):
# what --budget and --bandwidth refuse (decimals of bytes, hex, a sign, a space, an exponent,
# 0, 0%, a seventh decimal, past 2^63-1 or 1000000%: status 2, a message naming the option and
# the text); a graph whose budget-free peak is 2^53+1 bytes, where the peak as the budget (in
# bytes and as 100%) fits and a byte less does not, the JSON's budgets exact; 2^63-1 as a
# budget, a bandwidth and a peak; a percentage rounded down, said back as written, and one past
# 2^63-1 bytes refused (status 1); the sweep's budgets and the claim's in integers. The graphs
# are made here.
# Usage: test_budget_exact.sh MEMTRIS SOURCE_DIR [GROUP]. Needs python3. Prints "N passed, M
# failed".
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 MEMTRIS SOURCE_DIR [GROUP]" >&2
    exit 2
fi
M=$1
SRC=$2
GROUP=${3:-all}
. "$(dirname "$0")/clilib.sh" budget-exact

# peak_graph FILE SIZE...: ALLOCs of those sizes (each at most 2^53-1, the most a Size takes)
# that one compute node reads, then frees: its budget-free peak is their sum.
peak_graph() {
    python3 - "$@" <<'EOF'
import json, sys
path, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
n = len(sizes)
nodes = [{"Id": b, "Op": "ALLOC", "Size": s, "BufId": b} for b, s in enumerate(sizes)]
nodes.append({"Id": n, "Op": "mm", "Inputs": list(range(n))})
nodes += [{"Id": n + 1 + b, "Op": "FREE", "BufId": b} for b in range(n)]
edges = [[b, n] for b in range(n)] + [[n, n + 1 + b] for b in range(n)]
json.dump({"Nodes": nodes, "Edges": edges}, open(path, "w"))
EOF
}

P53=9007199254740993 # 2^53 + 1
HUGE=$TMP/huge.json
peak_graph "$HUGE" 9007199254740991 2
MAX=$TMP/max.json # 2^63 - 1 = 1024 (2^53 - 1) + 1023
peak_graph "$MAX" $(for _ in $(seq 1024); do echo 9007199254740991; done) 1023
SMALL=$TMP/small.json
peak_graph "$SMALL" 400 200

# usage_error DESC OPTION_WORDS CMD...: status 2, nothing on stdout, a message naming them.
usage_error() {
    local desc=$1 words=$2
    shift 2
    run "$@"
    expect_rc 2 "$desc"
    expect_empty "$OUT" "$desc (stdout)"
    expect_grep "$ERR" "$words" "$desc (the message names the option and the text)"
}

group_usage() {
    local b
    for b in 0 0% 1.5 1.0 1.5B 0x10 +5 -5 "1.5 " "8 MiB x" 1e3 8E 8192P nan "" 9223372036854775808 \
        99999999999999999999 0.0000001% 1.0000001% 1000001% 1000000.000001% +50% -3% .5% 5.% \
        1e2% 0x10% "50 %" " 50%" 50%%; do
        usage_error "--budget '$b'" "--budget wants a size from 1 byte to 2^63-1 bytes" \
            "$M" budget "$SMALL" --budget "$b"
        expect_grep "$ERR" "not '$b'" "--budget '$b': the text said back"
    done
    for b in 0 0.5 1.5 0x10 +1 " 1.5" 1e3 9223372036854775808 8E; do
        usage_error "--bandwidth '$b'" \
            "--bandwidth wants bytes a second, a whole number from 1 to 2^63-1 or a size (as 16G), not '$b'" \
            "$M" budget "$SMALL" --budget 100% --bandwidth "$b"
    done
    # the other sizes read the same way
    usage_error "--max-memory 1048576.5" "--max-memory wants a size of at least 1 MiB" \
        "$M" schedule "$SMALL" --max-memory 1048576.5
    usage_error "--capacity 0x100" "--capacity wants a size of at least 1 byte" \
        "$M" place "$SMALL" --capacity 0x100
}

# The 2^53+1 peak: a double holds it as 2^53, and a budget read or worked out through one
# missed the peak by a byte.
group_peak() {
    run "$M" validate "$HUGE"
    expect_rc 0 "the 2^53+1 graph loads"
    expect_grep "$OUT" "allocated  8.0 PiB ($P53 bytes)" "validate: its bytes exact"
    local b
    for b in $P53 100% 9223372036854775807 100.5% 16.5PiB; do
        run "$M" budget "$HUGE" --budget "$b" --format json
        expect_rc 0 "--budget $b: a plan"
        py "--budget $b: exact in the JSON" '
import json, sys
d, arg, peak = json.load(open(sys.argv[1])), sys.argv[2], 2**53 + 1
want = {"100%": peak, "100.5%": peak * 1005 // 1000, "16.5PiB": 33 << 49}.get(arg)
want = int(arg) if want is None else want
assert d["budget"] == want and d["budget_free_peak"] == peak, (d["budget"], want)
assert d["feasible"] and d["peak"] == peak and d["reruns"] == 0, d
' "$OUT" "$b"
    done
    run "$M" budget "$HUGE" --budget 9007199254740992 --format json
    expect_rc 1 "2^53: a byte under the peak, no plan"
    expect_grep "$ERR" "no plan fits in 8.0 PiB (9007199254740992 bytes); the least budget any plan fits in is 8.0 PiB ($P53 bytes)" \
        "2^53: the budget and the least told apart"
    py "2^53: the JSON exact" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["budget"] == 2**53 and d["least_budget"] == 2**53 + 1 == d["least_budget_bound"], d
assert not d["feasible"] and d["proven_infeasible"], d
' "$OUT"
    run "$M" budget "$HUGE" --budget 100%
    expect_rc 0 "100%: text"
    expect_grep "$OUT" "budget 8.0 PiB (100% of the budget-free peak), budget-free peak 8.0 PiB" \
        "100%: said"
    expect_grep "$OUT" "peak 8.0 PiB ($P53 bytes)" "100%: the plan's peak"
    run "$M" budget "$HUGE" --budget 0.000001% --format json
    expect_rc 1 "0.000001%: no plan"
    py "0.000001%: floor(peak / 10^8)" '
import json, sys
assert json.load(open(sys.argv[1]))["budget"] == (2**53 + 1) // 10**8 == 90071992
' "$OUT"
}

# 2^63-1: the most a budget, a bandwidth and a peak may be.
group_max() {
    run "$M" budget "$MAX" --budget 100% --format json
    expect_rc 0 "a 2^63-1 peak: 100%"
    py "a 2^63-1 peak: 100% exact" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["budget"] == d["budget_free_peak"] == d["peak"] == 2**63 - 1, d
' "$OUT"
    run "$M" budget "$MAX" --budget 9223372036854775806
    expect_rc 1 "a 2^63-1 peak: a byte less, no plan"
    expect_grep "$ERR" "no plan fits in 8.0 EiB (9223372036854775806 bytes); the least budget any plan fits in is 8.0 EiB (9223372036854775807 bytes)" \
        "a 2^63-1 peak: a byte less, said"
    run "$M" budget "$MAX" --budget 100.000001%
    expect_rc 1 "a percentage past 2^63-1 bytes"
    expect_grep "$ERR" "memtris budget: $MAX: 100.000001% of the budget-free peak (9223372036854775807 bytes) is past 2^63-1 bytes" \
        "a percentage past 2^63-1 bytes: said"
    expect_empty "$OUT" "a percentage past 2^63-1 bytes: nothing on stdout"
    run "$M" budget "$SMALL" --budget 1000000% --bandwidth 9223372036854775807 --format json
    expect_rc 0 "1000000% and a 2^63-1 bandwidth"
    py "1000000%: 10000 times the peak; the bandwidth exact" '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["budget"] == 600 * 10000 and d["bandwidth"] == 2**63 - 1, d
' "$OUT"
    for b in 1:1 16G:17179869184 1.5K:1536 9007199254740993:9007199254740993; do
        run "$M" budget "$SMALL" --budget 100% --bandwidth "${b%:*}" --format json
        py "--bandwidth ${b%:*}: ${b#*:} bytes a second" '
import json, sys
assert json.load(open(sys.argv[1]))["bandwidth"] == int(sys.argv[2])
' "$OUT" "${b#*:}"
    done
}

# A percentage rounded down to a whole byte, and said back as it was written.
group_percent() {
    local p
    for p in 33.333333%:199 12.5%:75 66.666667%:400 99.999999%:599 100%:600 0.5%:3; do
        run "$M" budget "$SMALL" --budget "${p%:*}" --format json
        py "${p%:*} of 600 B: ${p#*:} bytes" '
import json, sys
assert json.load(open(sys.argv[1]))["budget"] == int(sys.argv[2]), open(sys.argv[1]).read()
' "$OUT" "${p#*:}"
    done
    run "$M" budget "$SMALL" --budget 100.000001%
    expect_grep "$OUT" "budget 600 B (100.000001% of the budget-free peak)" \
        "a seventh significant figure said back whole"
    run "$M" budget "$SMALL" --budget 150.25%
    expect_grep "$OUT" "budget 901 B (150.25% of the budget-free peak)" "150.25%: 901 B, said back"
}

# The sweep's budgets and the claim's in integers: on peaks past 2^53 each point is
# lo + span * k / (points - 1) rounded half up, the last the peak, the claim 35% rounded down.
group_sweep() {
    # A makes x, B reads x and makes y, C reads y and makes w, D reads x and w: every plan
    # needs 2 S (C's or D's reads and writes), the given order peaks at 3 S (x, y and w).
    python3 - "$TMP/chain.json" <<'EOF'
import json, sys
S = [9007199254740991, 9007199254740989, 9007199254740987]
nodes = [{"Id": 0, "Op": "ALLOC", "Size": S[0], "BufId": 1}, {"Id": 1, "Op": "A", "Inputs": [1]},
         {"Id": 2, "Op": "ALLOC", "Size": S[1], "BufId": 2}, {"Id": 3, "Op": "B", "Inputs": [1, 2]},
         {"Id": 4, "Op": "ALLOC", "Size": S[2], "BufId": 3}, {"Id": 5, "Op": "C", "Inputs": [2, 3]},
         {"Id": 6, "Op": "FREE", "BufId": 2}, {"Id": 7, "Op": "D", "Inputs": [1, 3]},
         {"Id": 8, "Op": "FREE", "BufId": 1}, {"Id": 9, "Op": "FREE", "BufId": 3}]
edges = [[0, 1], [2, 3], [1, 3], [4, 5], [3, 5], [5, 6], [5, 7], [1, 7], [7, 8], [7, 9]]
json.dump({"Nodes": nodes, "Edges": edges}, open(sys.argv[1], "w"))
EOF
    run "$M" budget "$TMP/chain.json" --sweep --points 7 --allow recompute --format json
    expect_rc 0 "the sweep past 2^53"
    py "the sweep past 2^53: every budget exact" '
import json, sys
d = json.load(open(sys.argv[1]))
peak, lo = d["budget_free_peak"], d["least_budget_bound"]
S = [9007199254740991, 9007199254740989, 9007199254740987]
assert peak == sum(S) and lo < peak, (peak, lo)
n = 7
want = [lo + (2 * (peak - lo) * k + (n - 1)) // (2 * (n - 1)) for k in range(n)]
assert [p["budget"] for p in d["points"]] == want, ([p["budget"] for p in d["points"]], want)
last = d["points"][-1]
assert last["budget"] == peak and last["feasible"] and last["peak"] == peak, last
assert d["seed_claim"]["budget"] == peak * 35 // 100, d["seed_claim"]
' "$OUT"
}

run_groups
