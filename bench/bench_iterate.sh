#!/usr/bin/env bash
# bench_iterate.sh: memtris iterate on BERT-base (samples/bert_base.json),
# 1,000 iterations at scale 0.25:1 (seed 1): each pool's peak capacity, mean
# waste and reallocations, and the simulation's time (best of 5 runs, and the
# whole command's wall time). Usage: bench/bench_iterate.sh [MEMTRIS] [SAMPLE]
set -eu
M=${1:-build/memtris}
G=${2:-$(dirname "$0")/../samples/bert_base.json}
OUT=$(mktemp "${TMPDIR:-/tmp}/bench_iterate.XXXXXX")
trap 'rm -f "$OUT"' EXIT
best_sim=
best_wall=
for i in 1 2 3 4 5; do
    t0=$(date +%s.%N)
    "$M" iterate "$G" --iterations 1000 --scale 0.25:1 --seed 1 --format json >"$OUT"
    t1=$(date +%s.%N)
    read -r sim wall < <(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["seconds"], float(sys.argv[3]) - float(sys.argv[2]))' "$OUT" "$t0" "$t1")
    best_sim=$(python3 -c "print(min(float('$sim'), float('${best_sim:-inf}')))")
    best_wall=$(python3 -c "print(min(float('$wall'), float('${best_wall:-inf}')))")
done
python3 - "$OUT" "$best_sim" "$best_wall" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
MiB = 1 << 20
print("%s: policy %s, %d iterations, scale %g:%g, seed %d; expected maximum %.2f MiB (%d bytes)"
      % (d["graph"], d["policy"], d["iterations"], d["scale"][0], d["scale"][1], d["seed"],
         d["expected_max"] / MiB, d["expected_max"]))
print()
print("| pool | peak capacity | mean waste | reallocations | grows | shrinks |")
print("|---|---:|---:|---:|---:|---:|")
for p in d["pools"]:
    print("| %s | %.2f MiB | %.2f MiB | %d | %d | %d |" % (p["name"], p["peak_capacity"] / MiB,
          p["mean_waste"] / MiB, p["reallocations"], p["grows"], p["shrinks"]))
print()
print("simulation %.1f ms, whole command %.0f ms (best of 5)" % (float(sys.argv[2]) * 1e3,
      float(sys.argv[3]) * 1e3))
PYEOF
