#!/usr/bin/env bash
# bench_time.sh: time in memtris, measured (issue 15).
#  1. The seed's FAQ Q3 ("could the optimised order make computation slower?")
#     answered with numbers: on each model sample (latencies measured by
#     tools/fx2memtris.py --latency measure), as exported (one stream: only
#     data movement would be on stream 1) and on two streams by
#     tools/assign_streams.py's fork rule, the peak and makespan of fifo,
#     priority, best and multiqueue, and what weighted's alpha buys back:
#     its points on the Pareto front (compare --pareto).
#  2. compare --pareto's wall time on a 100k-node gen random graph (gen's
#     latencies, two streams), the best of three runs (target: 10 s).
# Usage: bench/bench_time.sh [BUILD_DIR]   (default build); prints Markdown.
set -euo pipefail
cd "$(dirname "$0")/.."
M=${1:-build}/memtris
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

echo "| sample | streams | critical path | fifo | priority | best | multiqueue | weighted on the front |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for s in resnet50 mobilenet_v2 efficientnet_b0 bert_base; do
    for n in 1 2; do
        g=samples/$s.json
        if [ "$n" = 2 ]; then
            python3 tools/assign_streams.py "$g" --streams 2 -o "$TMP/$s-2.json"
            g=$TMP/$s-2.json
        fi
        "$M" compare --pareto -f json "$g" >"$TMP/p.json"
        python3 - "$TMP/p.json" "$s" "$n" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
pts = {(p["policy"], p["alpha"]): p for p in d["points"]}
fifo = pts[("fifo", None)]
def cell(p):
    dt = (p["makespan"] / fifo["makespan"] - 1) * 100 if fifo["makespan"] else 0
    dm = (p["peak"] / fifo["peak"] - 1) * 100 if fifo["peak"] else 0
    base = f"{p['peak'] / 2**20:.1f} MiB, {p['makespan']:.2f} ms"
    return base if p is fifo else f"{base} ({dm:+.1f}% peak, {dt:+.2f}% time)"
front = [p for p in d["points"] if p["policy"] == "weighted" and p["pareto"]]
seen, words = set(), []
for p in front:
    key = (p["peak"], p["makespan"])
    if key in seen:
        continue
    seen.add(key)
    alphas = [q["alpha"] for q in front if (q["peak"], q["makespan"]) == key]
    a = f"{alphas[0]:.1f}" if len(alphas) == 1 else f"{alphas[0]:.1f}-{alphas[-1]:.1f}"
    words.append(f"alpha {a}: {p['peak'] / 2**20:.1f} MiB, {p['makespan']:.2f} ms")
print(f"| {sys.argv[2]} | {sys.argv[3]} | {d['critical_path']:.2f} ms | {cell(fifo)} | "
      f"{cell(pts[('priority', None)])} | {cell(pts[('best', None)])} | "
      f"{cell(pts[('multiqueue', None)])} | {'; '.join(words) or 'none'} |")
EOF
    done
done

echo
"$M" gen random --nodes 100000 --seed 1 -o "$TMP/r.json"
python3 tools/assign_streams.py "$TMP/r.json" --streams 2 -o "$TMP/r2.json"
best=""
for i in 1 2 3; do
    t0=$(date +%s.%N)
    "$M" compare --pareto "$TMP/r2.json" >"$TMP/out.txt"
    t=$(echo "$(date +%s.%N) - $t0" | bc)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
done
printf 'compare --pareto on gen random 100000 (2 streams): %.2f s (best of 3; target 10 s)\n' "$best"
sed -n '1,20p' "$TMP/out.txt"
