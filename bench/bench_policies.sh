#!/bin/bash
# bench_policies.sh: graph x policy (fifo, priority, dfs, postorder, lpmf,
# bfs, best, exact) peaks, each one's gap to exact's proven optimum, and
# exact's time and states, as a Markdown table for bench/RESULTS.md. Graphs:
# the model samples, torchvision models exported with tools/fx2memtris.py
# (MODELS; needs Debian's python3-torch, skipped with a note when it cannot
# run), and `memtris gen randwire` (60-300 nodes) and `gen random` (20-60).
# Environment: MEMTRIS (default build/memtris), PYTHON (default
# /usr/bin/python3), MODELS, TV (where exports are kept, default bench/data/tv).
set -u
BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
M=${MEMTRIS:-$ROOT/build/memtris}
PY=${PYTHON:-/usr/bin/python3}
TV=${TV:-$BENCH/data/tv}
MODELS=${MODELS:-"alexnet vgg16 googlenet inception_v3 densenet121 squeezenet1_0 mnasnet1_0 regnet_y_400mf resnext50_32x4d mobilenet_v3_large convnext_tiny"}
mkdir -p "$TV" "$BENCH/data/gen"
graphs=()
for s in resnet50 mobilenet_v2 efficientnet_b0 bert_base demo xla-counterexample greedy-not-optimal; do
    graphs+=("$ROOT/samples/$s.json")
done
for m in $MODELS; do
    shape=3,224,224
    [ "$m" = inception_v3 ] && shape=3,299,299
    if [ ! -s "$TV/$m.json" ]; then
        "$PY" "$ROOT/tools/fx2memtris.py" "$m" --input-shape "$shape" -o "$TV/$m.json" >/dev/null 2>&1 ||
            { echo "note: $m not exported (torch missing?)" >&2; continue; }
    fi
    graphs+=("$TV/$m.json")
done
for spec in "randwire 60 1" "randwire 100 1" "randwire 150 2" "randwire 200 3" "randwire 300 1" "randwire 300 2" "randwire 300 3" \
            "random 20 1" "random 40 2" "random 60 1" "random 60 2" "random 60 3"; do
    set -- $spec
    f="$BENCH/data/gen/$1-$2-$3.json"
    "$M" gen "$1" --nodes "$2" --seed "$3" -o "$f"
    graphs+=("$f")
done
echo "| graph | nodes | fifo | priority | dfs | postorder | lpmf | bfs | best | exact | exact time | states |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for f in "${graphs[@]}"; do
    start=$(date +%s.%N)
    "$M" compare "$f" --policies all --format json >"$BENCH/data/cmp.json" 2>/dev/null || { echo "| $(basename "$f") | failed |"; continue; }
    t=$(echo "$(date +%s.%N) - $start" | bc)
    "$M" schedule "$f" --policy exact --format json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin); s = d["search"]
print(s["states"], "proven" if d["proven_optimal"] else "gap, stopped: " + s["stopped"])' >"$BENCH/data/ex.txt"
    python3 - "$f" "$t" "$BENCH/data/cmp.json" "$BENCH/data/ex.txt" <<'PYEOF'
import json, sys, os
f, t, cmp, ex = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
d = json.load(open(cmp)); states, note = open(ex).read().split(" ", 1)
opt = d["optimum"]
def cell(r):
    mib = r["peak"] / 2**20
    if opt is None: return "%.2f" % mib
    gap = 100.0 * (r["peak"] - opt) / opt if opt else 0
    return "%.2f" % mib if gap == 0 else "%.2f (+%.1f%%)" % (mib, gap)
cells = [cell(r) for r in d["results"]]
name = os.path.basename(f)
print("| %s | %d | %s | %.2f s | %s%s |" % (name, d["results"][0]["steps"], " | ".join(cells), t, states,
      "" if note.strip() == "proven" else " (" + note.strip() + ")"))
PYEOF
done
