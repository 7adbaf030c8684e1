#!/usr/bin/env bash
# bench_gen_train.sh: memtris gen train at scale (issue 27, item 7): for each N, the wall
# time and peak memory (max RSS) of gen, the file's size, validate, and schedule with
# policies given (the step as written) and priority: their peaks and the bytes by category
# at given's peak. Each command once (the machine is shared: rerun to compare).
# Usage: bench/bench_gen_train.sh [BUILD_DIR] [N...]   (default build-rel, 1000000); prints
# Markdown.
set -euo pipefail
cd "$(dirname "$0")/.."
M=${1:-build-rel}/memtris
shift || true
SIZES=${*:-1000000}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# timed NAME CMD...: runs CMD, stdout to $TMP/NAME.out; leaves "seconds RSS-MiB" in
# $TMP/NAME.time.
timed() {
    local name=$1
    shift
    /usr/bin/time -f "%e %M" -o "$TMP/$name.time" "$@" >"$TMP/$name.out"
}
cell() { awk '{printf "%.2f s, %.0f MiB", $1, $2 / 1024}' "$TMP/$1.time"; }
peak() { grep -oE '^peak .*\(([0-9]+) bytes\)' "$TMP/$1.out" | grep -oE '[0-9]+ bytes' | grep -oE '[0-9]+'; }

echo "| N | gen | file | validate | given | given's peak | priority | priority's peak | at given's peak |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---|"
for n in $SIZES; do
    timed gen "$M" gen train -n "$n" --seed 1 -o "$TMP/t.json"
    size=$(stat -c %s "$TMP/t.json")
    timed validate "$M" validate "$TMP/t.json"
    timed given "$M" schedule -p given "$TMP/t.json"
    timed priority "$M" schedule -p priority "$TMP/t.json"
    gp=$(peak given)
    pp=$(peak priority)
    bycat=$(grep -oE '^at the peak: .*' "$TMP/given.out" | sed 's/^at the peak: //')
    awk -v n="$n" -v size="$size" -v gp="$gp" -v pp="$pp" -v gen="$(cell gen)" \
        -v val="$(cell validate)" -v giv="$(cell given)" -v pri="$(cell priority)" \
        -v bycat="$bycat" 'BEGIN {
        printf "| %d | %s | %.1f MiB | %s | %s | %.2f GiB | %s | %.2f GiB (%+.4f%%) | %s |\n",
            n, gen, size / 1048576, val, giv, gp / 2^30, pri, pp / 2^30, (pp / gp - 1) * 100, bycat }'
done
