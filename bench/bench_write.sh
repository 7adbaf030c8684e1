#!/usr/bin/env bash
# bench_write.sh: the writers at scale (issue 46, item 3): MB/s (10^6 bytes of output a
# second) of the writing phase of `gen randwire`, `schedule -p priority -f json` and
# `plan -f json` on randwire graphs of 300k and 1M nodes (seed 1), with BEFORE's binary
# beside BUILD's when given, and whether their outputs are the same bytes (cmp).
# The writing phase is timed inside the process by bench/write_clock.c (an LD_PRELOAD
# shim): from the command's first fwrite or write of output to its last one, wall and
# CPU (user+sys) seconds; the load, the schedule and the placement come before it, so
# they are not counted; MB is the output less the first call's bytes (formatted before
# the clock started: gen's first MiB). Beside it, the whole command's wall and CPU
# (/usr/bin/time). Best of
# RUNS (default 3) for each figure; the machine is shared, so the load (uptime) is
# printed before and after.
# Usage: bench/bench_write.sh BUILD [BEFORE_BUILD] [NODES...]   (default 300000 1000000);
# BUILD and BEFORE_BUILD are build folders (or folders) holding a memtris binary.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bench/bench_write.sh BUILD [BEFORE_BUILD] [NODES...]" >&2; exit 2; }
NEW=$1/memtris
OLD=
shift
if [ $# -ge 1 ] && [ -x "$1/memtris" ]; then
    OLD=$1/memtris
    shift
fi
SIZES=${*:-300000 1000000}
RUNS=${RUNS:-3}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cc -O2 -shared -fPIC -o "$TMP/write_clock.so" bench/write_clock.c -ldl

# clocked OUT CMD...: runs CMD RUNS times, its output to OUT (a command writing to
# standard output gets it there); prints the best "write_wall write_cpu whole_wall
# whole_cpu" seconds and the first call's bytes.
clocked() {
    local out=$1
    shift
    : >"$TMP/clock" && : >"$TMP/whole"
    for _ in $(seq "$RUNS"); do
        rm -f "$out"
        WRITE_CLOCK_OUT=$TMP/clock LD_PRELOAD=$TMP/write_clock.so \
            /usr/bin/time -a -o "$TMP/whole" -f "%e %U %S" "$@" >"$TMP/stdout"
        [ -e "$out" ] || mv "$TMP/stdout" "$out"
    done
    paste -d' ' "$TMP/clock" "$TMP/whole" | awk '
        NR == 1 { w = $1; c = $2; tw = $6; tc = $7 + $8; first = $5 }
        { if ($1 < w) w = $1; if ($2 < c) c = $2; if ($6 < tw) tw = $6; if ($7 + $8 < tc) tc = $7 + $8 }
        END { printf "%.4f %.4f %.2f %.2f %d\n", w, c, tw, tc, first }'
}

# row COMMAND NODES WHICH OUT FIGURES: one line of the table.
row() {
    local bytes
    bytes=$(stat -c %s "$4")
    echo "$5" | awk -v cmd="$1" -v n="$2" -v which="$3" -v b="$bytes" '{
        m = (b - $5) / 1e6
        printf "| %s | %s | %s | %.1f | %.3f | %.3f | %.0f | %.0f | %.2f | %.2f |\n",
            cmd, n, which, m, $1, $2, m / $1, m / $2, $3, $4 }'
}

echo "$(date -u '+%F %T UTC'); load before: $(uptime | sed 's/.*load average: //'); best of $RUNS"
echo
echo "| command | nodes | binary | MB | write wall s | write CPU s | MB/s wall | MB/s CPU | whole wall s | whole CPU s |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"
same=""
for n in $SIZES; do
    g=$TMP/rw$n.json
    "$NEW" gen randwire -n "$n" --seed 1 -o "$g"
    for which in before after; do
        m=$NEW
        if [ $which = before ]; then
            [ -n "$OLD" ] || continue
            m=$OLD
        fi
        f=$(clocked "$TMP/gen.$which" "$m" gen randwire -n "$n" --seed 1 -o "$TMP/gen.$which")
        row "gen randwire" "$n" $which "$TMP/gen.$which" "$f"
        f=$(clocked "$TMP/sched.$which" "$m" schedule -p priority -f json "$g")
        row "schedule -p priority -f json" "$n" $which "$TMP/sched.$which" "$f"
        f=$(clocked "$TMP/plan.$which" "$m" plan -f json "$g" -o "$TMP/plan.$which")
        row "plan -f json" "$n" $which "$TMP/plan.$which" "$f"
    done
    if [ -n "$OLD" ]; then
        for c in gen sched plan; do
            if cmp -s "$TMP/$c.before" "$TMP/$c.after"; then same="$same $c-$n:same"
            else same="$same $c-$n:DIFFER"; fi
        done
    fi
    rm -f "$g" "$TMP"/*.before "$TMP"/*.after
done
echo
[ -z "$OLD" ] || echo "outputs before and after (cmp):$same"
echo "load after: $(uptime | sed 's/.*load average: //')"
