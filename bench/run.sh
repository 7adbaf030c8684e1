#!/bin/bash
# run.sh: the memtris benchmark. Generates chain and random graphs of 10k, 100k
# and 1M nodes into bench/data/ with `memtris gen`, builds bench_core (-O2)
# and memtris, runs bench_core on each graph, then times `memtris schedule`
# against the seed's Python (tests/seed_reference.py --peak) end to end with
# /usr/bin/time -v; and runs bench_tui (key + frame, jumps) on the 1M graphs.
#
# Environment: RUNS (bench_core processes per graph, default 3), E2E_RUNS
# (end-to-end repetitions, default 3), SIZES (default "10k 100k 1M"),
# E2E_SIZES (default "100k 1M"), MEMTRIS (a memtris binary; default: build one
# in bench/out/build), PYTHON (default python3), SEED (default 1).
set -eu

BENCH=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$BENCH")
DATA=$BENCH/data
OUT=$BENCH/out
RUNS=${RUNS:-3}
E2E_RUNS=${E2E_RUNS:-3}
SIZES=${SIZES:-"10k 100k 1M"}
E2E_SIZES=${E2E_SIZES:-"100k 1M"}
PYTHON=${PYTHON:-python3}
SEED=${SEED:-1}
mkdir -p "$DATA" "$OUT"

count() {   # 10k -> 10000
    case $1 in
    *k) echo $((${1%k} * 1000)) ;;
    *M) echo $((${1%M} * 1000000)) ;;
    *) echo "$1" ;;
    esac
}

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load: $(uptime | sed 's/.*load average: //')"
echo "== building (RelWithDebInfo, -O2)"
cmake -S "$ROOT" -B "$OUT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF >/dev/null
make -s -C "$OUT/build" -j"$(nproc)" memtris bench_core bench_tui >/dev/null
MEMTRIS=${MEMTRIS:-$OUT/build/memtris}
BENCH_CORE=$OUT/build/bench/bench_core
echo "bench_core: $BENCH_CORE   memtris: $MEMTRIS"

echo "== graphs (seed $SEED)"
FILES=
for kind in chain random; do
    for s in $SIZES; do
        f=$DATA/$kind-$s.json
        if [ ! -s "$f" ] || [ "$MEMTRIS" -nt "$f" ]; then
            "$MEMTRIS" gen "$kind" -n "$(count "$s")" --seed "$SEED" -o "$f.tmp"
            mv "$f.tmp" "$f"
            "$MEMTRIS" validate "$f" >/dev/null
        fi
        FILES="$FILES $f"
    done
done
for f in $FILES; do printf '  %12d  %s\n' "$(wc -c <"$f")" "$f"; done

echo "== bench_core (best and worst of $RUNS processes per graph; schedule times best of 3 in each)"
# shellcheck disable=SC2086
"$BENCH_CORE" --runs "$RUNS" --md $FILES | tee "$OUT/bench_core.txt"

# e2e LABEL CMD...: runs CMD E2E_RUNS times under /usr/bin/time -v (stdout to
# /dev/null); prints best and worst wall time and the smallest max RSS.
e2e() {
    label=$1; shift
    : >"$OUT/e2e.tmp"
    i=0
    while [ $i -lt "$E2E_RUNS" ]; do
        /usr/bin/time -v "$@" >/dev/null 2>"$OUT/time.tmp" || { cat "$OUT/time.tmp"; return 1; }
        awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0;
                        for (k = 1; k <= n; k++) s = s * 60 + t[k]; w = s }
                    /Maximum resident set size/ { r = $2 }
                    END { print w, r }' "$OUT/time.tmp" >>"$OUT/e2e.tmp"
        i=$((i + 1))
    done
    sort -n "$OUT/e2e.tmp" | awk -v l="$label" '
        NR == 1 { best = $1; rss = $2 } { worst = $1; if ($2 < rss) rss = $2 }
        END { printf "| %s | %.2f | %.2f | %.0f |\n", l, best, worst, rss / 1024 }'
}

echo "== TUI through the headless canvas renderer (bench_tui, 132x40)"
for s in $SIZES; do
    case $s in *M) ;; *) continue ;; esac
    for kind in chain random; do
        "$OUT/build/bench/bench_tui" "$DATA/$kind-$s.json" 132x40 | tee -a "$OUT/bench_tui.txt"
    done
done

echo "== end to end (best and worst wall of $E2E_RUNS runs, /usr/bin/time -v)"
{
    echo "| command | wall s (best) | wall s (worst) | max RSS MiB |"
    echo "|---|---:|---:|---:|"
    for s in $E2E_SIZES; do
        f=$DATA/random-$s.json
        e2e "seed Python (heapq), random-$s" "$PYTHON" "$ROOT/tests/seed_reference.py" --peak "$f"
        e2e "memtris schedule --format json, random-$s" "$MEMTRIS" schedule "$f" --format json
    done
} | tee "$OUT/e2e.txt"
rm -f "$OUT/e2e.tmp" "$OUT/time.tmp"
echo "== done, load: $(uptime | sed 's/.*load average: //')"
