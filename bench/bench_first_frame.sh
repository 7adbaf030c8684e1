#!/usr/bin/env bash
# bench_first_frame.sh: the TUI's first frame on a large graph, from start to
# the frame on screen, as a user sees it (issue 46: within 1 s at 1M nodes).
# Starts `memtris FILE` in tmux at 120x35 and polls the screen (every 10 ms)
# until the status bar ("step 0/") and the key bar ("F1Help") are there: the
# wall seconds from the launch, and the CPU seconds memtris had spent by then
# (all its threads, from /proc), REPS times, then the best. Then
# bench_first_frame (the same work without a terminal, phase by phase: the
# load and what comes after it) on the same file.
# FILE: default `memtris gen randwire -n 1000000 --seed 1` (145 MB), made in
# a temporary folder. Prints Markdown-ish lines; note the machine's load.
# Usage: bench/bench_first_frame.sh [BUILD_DIR [FILE [REPS]]]   (default build, 3)
set -euo pipefail
cd "$(dirname "$0")/.."
B=$(cd "${1:-build}" && pwd)
TMP=$(mktemp -d)
sock="memtris-bench-ff-$$"
T() { SHELL=/bin/bash tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
F=${2:-}
if [ -z "$F" ]; then
    F=$TMP/randwire-1m.json
    "$B/memtris" gen randwire -n 1000000 --seed 1 -o "$F"
fi
F=$(cd "$(dirname "$F")" && pwd)/$(basename "$F")
REPS=${3:-3}
unset TMUX
T start-server \; set-option -s exit-empty off
tck=$(getconf CLK_TCK)
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); uptime:$(uptime)"
echo "file: $F ($(stat -c %s "$F") bytes); build: $B"
best=
for r in $(seq "$REPS"); do
    cat "$F" >/dev/null # the file in the page cache, as for every run
    t0=$(date +%s.%N)
    T new-session -d -s "ff$r" -x 120 -y 35 "exec '$B/memtris' '$F'"
    pid=$(T display-message -p -t "ff$r" '#{pane_pid}')
    cpu=
    while :; do
        s=$(T capture-pane -p -t "ff$r" 2>/dev/null || true)
        if grep -qF "step 0/" <<<"$s" && grep -qF "F1Help" <<<"$s"; then
            t1=$(date +%s.%N)
            read -r -a st <"/proc/$pid/stat" || true
            # utime and stime: fields 14 and 15 (after the name, which has no spaces here)
            [ -n "${st[13]:-}" ] && cpu=$(echo "scale=3; (${st[13]} + ${st[14]}) / $tck" | bc)
            break
        fi
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "memtris exited before its first frame:"
            echo "$s"
            exit 1
        fi
        sleep 0.01
    done
    T kill-session -t "ff$r"
    wall=$(echo "$t1 - $t0" | bc)
    echo "run $r: first frame after $(printf '%.3f' "$wall") s wall, ${cpu:-?} s CPU"
    if [ -z "$best" ] || [ "$(echo "$wall < $best" | bc)" = 1 ]; then best=$wall; fi
done
echo "best of $REPS: first frame after $(printf '%.3f' "$best") s wall"
echo
"$B/bench/bench_first_frame" "$F" 120x35 "$REPS"
