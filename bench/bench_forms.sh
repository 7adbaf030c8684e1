#!/bin/bash
# bench_forms.sh: the exact placer on MiniMalloc's challenging problems in
# three forms (RESULTS.md, issue 24): csv, MiniMalloc's own file; steps, the
# same problem with each start and end at its own time (`plan G --placer
# first-fit -f minimalloc` of the chain graph G); graph, the chain of ALLOC
# and FREE nodes (minimalloc2json.py). For each: "cap", `--capacity 1048576
# --time-limit L` (fits or not, and the wall time) and "min", `--time-limit
# L` alone (the arena reached, and the wall time). One Markdown row a problem.
# MODE=best: the placer best instead (`--placer best`, no limit), one column
# a form: its arena, how far above 1048576 (the reference, as RESULTS.md's
# tables), and the wall time.
#
# Usage: bench/bench_forms.sh [MEMTRIS] (default build/memtris); PROBLEMS
# (default "A B C D E F G H I J K"), LIMIT (default 10), MODE (exact or best,
# default exact), WORK (scratch folder, default a temporary one).
set -eu

BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
MEMTRIS=${1:-$ROOT/build/memtris}
SET=${MINIMALLOC:-$ROOT/../shared/benchmarks/minimalloc}
[ -d "$SET" ] || SET=/work/shared/benchmarks/minimalloc
PROBLEMS=${PROBLEMS:-"A B C D E F G H I J K"}
LIMIT=${LIMIT:-10}
MODE=${MODE:-exact}
CAP=1048576
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"

# run FORM FILE MODE: prints "| result, T s"
run() {
    local form=$1 file=$2 mode=$3 cmd=place t rc out=$WORK/out.json
    [ "$form" = graph ] && cmd=plan
    local args=(--placer exact --align 1 --time-limit "$LIMIT" -f json -o "$out")
    [ "$mode" = cap ] && args+=(--capacity "$CAP")
    [ "$mode" = best ] && args=(--placer best --align 1 -f json -o "$out")
    rc=0
    t=$( { TIMEFORMAT=%R; time "$MEMTRIS" "$cmd" "$file" "${args[@]}" 2>/dev/null; } 2>&1) || rc=$?
    t=${t##*$'\n'}
    if [ "$mode" = cap ]; then
        if [ "$rc" = 0 ]; then printf ' fits, %.2f s |' "$t"; else printf ' no answer, %.2f s |' "$t"; fi
    elif [ "$mode" = best ]; then
        printf ' %s |' "$(python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["arena"]
print("%d %+.1f%% %.2f s" % (a, 100.0 * (a - int(sys.argv[2])) / int(sys.argv[2]), float(sys.argv[3])))' \
            "$out" "$CAP" "$t")"
    else
        printf ' %s %.2f s |' "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["arena"])' "$out")" "$t"
    fi
}

if [ "$MODE" = best ]; then
    printf '| problem | csv | steps | graph |\n|---|---:|---:|---:|\n'
else
    printf '| problem | csv: cap | csv: min | steps: cap | steps: min | graph: cap | graph: min |\n'
    printf '|---|---:|---:|---:|---:|---:|---:|\n'
fi
for x in $PROBLEMS; do
    csv=$(ls "$SET"/"$x".*csv | head -1)
    [ -s "$WORK/$x.json" ] || python3 "$BENCH/minimalloc2json.py" "$csv" "$WORK/$x.json"
    [ -s "$WORK/$x.steps.csv" ] || "$MEMTRIS" plan "$WORK/$x.json" --placer first-fit --align 1 \
        -f minimalloc -o "$WORK/$x.steps.csv"
    printf '| %s |' "$x"
    for form in csv steps graph; do
        case $form in
        csv) f=$csv ;;
        steps) f=$WORK/$x.steps.csv ;;
        graph) f=$WORK/$x.json ;;
        esac
        if [ "$MODE" = best ]; then
            run "$form" "$f" best
        else
            run "$form" "$f" cap
            run "$form" "$f" min
        fi
    done
    printf '\n'
done
