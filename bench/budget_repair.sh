#!/bin/sh
# bench/budget_repair.sh: greedy, repair, best (and exact with --exact S) on `memtris gen train -n N`
# steps, seeds 1..5, at 60/70/80/90% of the budget-free peak (issue 43, item 1): the extra time
# of each plan (ms), best's proof and bound, the wall time of repair and best. A markdown table.
# Usage: bench/budget_repair.sh MEMTRIS [-n N] [--exact SECONDS]
set -eu
M=$1
shift
N=200
EXACT=0
while [ $# -gt 0 ]; do
    case $1 in
    -n) N=$2; shift 2 ;;
    --exact) EXACT=$2; shift 2 ;;
    *) echo "usage: $0 MEMTRIS [-n N] [--exact SECONDS]" >&2; exit 2 ;;
    esac
done
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
field() { # FILE: extra (or none), proven, lower bound
    /usr/bin/python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print("%s %s %s" % (("%.6f" % d["extra_ms"]) if d["feasible"] else "none",
      "yes" if d["proven_optimal"] else "no", "%.6f" % d["lower_bound_ms"]))' "$1"
}
timed() { # OUT SOLVER FILE PCT [ARGS]: the wall seconds
    _out=$1 _sv=$2 _f=$3 _pc=$4
    shift 4
    t0=$(date +%s.%N)
    "$M" budget "$_f" --budget "$_pc%" --solver "$_sv" --format json "$@" >"$_out"
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{printf "%.2f", $2 - $1}'
}
echo "| seed | budget | greedy ms | repair ms (s) | best ms (s) | best proven / bound | exact ${EXACT} s |"
echo "|---|---|---|---|---|---|---|"
for s in 1 2 3 4 5; do
    "$M" gen train -n "$N" --seed "$s" -o "$dir/t.json"
    for pc in 60 70 80 90; do
        timed "$dir/g" greedy "$dir/t.json" $pc >/dev/null
        tr=$(timed "$dir/r" repair "$dir/t.json" $pc)
        tb=$(timed "$dir/b" best "$dir/t.json" $pc)
        set -- $(field "$dir/g")
        g=$1
        set -- $(field "$dir/r")
        r=$1
        set -- $(field "$dir/b")
        b=$1 bp=$2 bl=$3
        x="not run"
        if [ "$EXACT" != 0 ]; then
            timed "$dir/x" exact "$dir/t.json" $pc --time-limit "$EXACT" >/dev/null
            set -- $(field "$dir/x")
            x="$1 (proven: $2, bound $3)"
        fi
        echo "| $s | $pc% | $g | $r ($tr) | $b ($tb) | $bp / $bl | $x |"
    done
done
