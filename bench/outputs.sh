#!/usr/bin/env bash
# outputs.sh: every command's output, to compare two builds byte for byte (a restructure
# changes none). Runs MEMTRIS over a fixed list of commands from the repository's root (the
# samples, tests/data, the built-in lessons; searches bounded by states, not by time, so
# that the outputs do not depend on the machine's speed) and writes, for each, its standard
# output, standard error and exit status under OUTDIR, with the files it writes; then
#   diff -r OUTDIR-before OUTDIR-after
# says what changed. Usage: bench/outputs.sh MEMTRIS OUTDIR
set -u
[ $# -eq 2 ] || { echo "usage: bench/outputs.sh MEMTRIS OUTDIR" >&2; exit 2; }
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$(dirname "$0")/.."
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
n=0

run() {   # run ARGS...: one command; files it writes under $scratch are kept too
    n=$((n + 1))
    local d f
    d=$(printf '%s/%04d' "$out" $n)
    mkdir -p "$d"
    printf '%s\n' "$*" >"$d/cmd"
    find "$scratch" -mindepth 1 -maxdepth 1 -type f -delete
    (cd "$scratch" && LANG=C.UTF-8 COLUMNS=100 "$bin" "$@" </dev/null >"$d/stdout" 2>"$d/stderr")
    echo $? >"$d/rc"
    # What depends on the clock: iterate's seconds, and compare's "best continuation" of a
    # node not taken (a search of at most 0.5 s) when it stops before it proves.
    sed -i -E -e 's/"seconds": [0-9.e+-]+/"seconds": T/' \
        -e "s/^simulated in [0-9.]+ ms/simulated in T ms/" \
        -e 's/\(the best a search found peaks at [^)]*\)/(the best a search found peaks at T)/g' \
        "$d/stdout"
    for f in "$scratch"/*; do [ -f "$f" ] && [ ! -L "$f" ] && cp "$f" "$d/file.$(basename "$f")"; done
    return 0
}

# The inputs by relative paths (links in the scratch folder), so that outputs that name them
# do not depend on where the repository is.
ln -s "$PWD/samples" "$scratch/samples"
ln -s "$PWD/tests/data" "$scratch/data"
S=samples
D=data
small="$S/demo.json $S/fanout.json $S/greedy-not-optimal.json $S/prefetch.json \
$S/seed-example.json $S/xla-counterexample.json $D/branches.json $D/chain.json \
$D/chain-train.json $D/layers.json $D/train-small.json $D/ui-train.json $D/arena-hole.json"
models="$S/resnet18_train.json $S/transformer_block_train.json $S/mobilenet_v2.json \
$S/resnet18_onnx.json $S/shufflenet_v2.json"
trains="$S/resnet18_train.json $S/transformer_block_train.json $D/chain-train.json \
$D/train-small.json $D/ui-train.json"
policies="fifo priority dfs postorder lpmf bfs best weighted multiqueue given"
placers="first-fit best-fit pool coloring greedy-size xla greedy-conflicts best"
lim="--time-limit 1000 --max-states 20000"
blim="--time-limit 1000 --max-states 2000" # exact in budget: minutes past a few thousand

# Help and version of every command, and usage errors.
run --help
run --version
for c in view schedule compare plan place replay iterate budget whatif validate lesson gen; do
    run "$c" --help
    run "$c" --no-such-option
done
run nosuchcommand

# Graphs: validate, schedule with every policy in each format, compare.
for f in $small $models $S/bert_base.json; do
    run validate "$f"
    run compare "$f" -P fifo,priority,dfs,postorder,lpmf,bfs,best,weighted,multiqueue,given
done
for f in $small; do
    for p in $policies; do
        run schedule "$f" -p "$p"
        run schedule "$f" -p "$p" -f json
    done
    run schedule "$f" -p exact $lim -f json
    run schedule "$f" -f csv
    run compare "$f" $lim
    run compare "$f" -f json $lim
    run compare "$f" -f csv -L all $lim
    run compare "$f" --pareto --svg p.svg
done
for f in $models; do
    run schedule "$f" -p priority -f json
    run schedule "$f" -p given
done

# Placement: plan with every placer, formats, SVG; MiniMalloc's CSV problems.
for f in $S/demo.json $S/fanout.json $D/arena-hole.json $S/resnet18_train.json; do
    for l in $placers; do
        run plan "$f" -l "$l"
    done
    run plan "$f" -f json
    run plan "$f" -f csv
    run plan "$f" -f minimalloc
    run plan "$f" -f memory-viz -o snap.pickle
    run plan "$f" --svg plan.svg -o plan.txt
    run plan "$f" -l exact --max-states 20000 --time-limit 1000
done
for f in $D/minimalloc-E.csv $D/minimalloc-G.csv $D/best-misses.csv; do
    for l in first-fit best-fit greedy-size xla best; do
        run place "$f" -l "$l"
    done
    run place "$f" -f json
    run place "$f" -f text --svg place.svg
done

# Iterate (no backend: the model alone), replay's errors.
for f in $S/demo.json $D/branches.json; do
    run iterate "$f" --iterations 50 --seed 3
    run iterate "$f" --iterations 20 -f json
    run iterate "$f" -a --iterations 5 --scale 0.5:2
done
run replay "$S/demo.json" --backend nosuch
run replay "$S/demo.json" --mode nosuch

# Budgets: every solver, allow and format; -o; the sweep and its SVG; errors.
for f in $trains; do
    budgets="95% 80% 60% 40%"
    case $f in "$S"/*) budgets="95% 80%" ;; esac # the models' lower budgets: minutes each
    for b in $budgets; do
        for s in greedy chain best; do
            run budget "$f" -b "$b" -s "$s" $blim
            run budget "$f" -b "$b" -s "$s" -f json $blim
        done
        run budget "$f" -b "$b" --allow offload $blim
        run budget "$f" -b "$b" --allow recompute,offload -f json $blim
        run budget "$f" -b "$b" --allow recompute,offload --bandwidth 1G $blim
    done
    run budget "$f" --sweep --points 6 -f json
    run budget "$f" --sweep --points 5 --svg sweep.svg
    run budget "$f" -b 95% -o plan.json $blim
done
for f in $D/chain-train.json $D/train-small.json $D/ui-train.json; do
    for b in 90% 70% 50% 30%; do
        run budget "$f" -b "$b" -s exact $blim
        run budget "$f" -b "$b" -s exact --allow recompute,offload -f json $blim
    done
done
run budget "$S/demo.json" -b 1
run budget "$S/demo.json" -b nonsense
run budget "$S/demo.json" -s nosuch -b 50%
run budget "$S/demo.json" --allow nosuch -b 50%
run budget "$S/demo.json" --sweep -b 50%
run budget "$S/demo.json" --points 5 -b 50%

# What-if.
for f in $trains $S/demo.json; do
    run whatif "$f"
    run whatif "$f" -f json
    run whatif "$f" -p priority
done

# Lessons: the list, each built-in lesson checked, a lesson file's errors.
run lesson --list
for l in fifo-vs-priority greedy-loses holes; do
    run lesson "$l" --check
done
for l in "$S"/lessons/*.lesson; do
    run lesson "$l" --check
done
run lesson nosuchlesson --check

# Generators.
for k in chain branch alloc-heavy huge random randwire train; do
    run gen "$k" -n 300 --seed 7
done
run gen packing -n 50 --seed 2 -c 100000
run gen packing -n 50 --seed 2 -c 100000 -f csv
run gen train -n 2000 --seed 1 -o g.json

# Bad input.
for f in "$D"/bad-line3.json "$D"/leaks.json "$D"/repeated-edge.json /nonexistent.json; do
    run validate "$f"
    run schedule "$f"
    run budget "$f" -b 50%
    run whatif "$f"
done
echo "$n commands, outputs in $out"
