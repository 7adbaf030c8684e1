#!/usr/bin/env bash
# test_valgrind.sh: memtris under valgrind's memcheck: every command on every
# sample and every test input, and the TUI through one tmux session. Each run
# must report 0 errors and 0 bytes definitely or indirectly lost.
# Usage: test_valgrind.sh MEMTRIS SOURCE_DIR GROUP
#   GROUP: ci (a subset for CI: small samples, bad inputs, gen, the TUI),
#          samples, inputs, gen, tui, or all.
set -u
M=$1
SRC=$2
GROUP=${3:-all}
pass=0 fail=0
if ! command -v valgrind >/dev/null 2>&1; then
    echo "SKIP: needs valgrind: it is not installed (the README's test command installs it)"
    exit 77
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/memtris-valgrind.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
VG=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect
    --errors-for-leak-kinds=definite,indirect --track-origins=yes --num-callers=30 --trace-children=no)

# vg WANT_STATUS ARGS...: memtris ARGS under memcheck; the exit status must be
# WANT_STATUS (the command's own) and the log clean.
vg() {
    local want=$1 log="$TMP/vg.log" st
    shift
    "${VG[@]}" --log-file="$log" "$M" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
    st=$?
    if [ $st -eq "$want" ] && grep -q "ERROR SUMMARY: 0 errors" "$log"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: memtris $* (status $st, want $want)"
        grep -E "ERROR SUMMARY|definitely lost|indirectly lost|Invalid|uninitialised|at 0x|by 0x" "$log" | head -30
        head -c 400 "$TMP/err"
    fi
}

# vg_as_plain ARGS...: as vg, wanting the status memtris gives without
# valgrind (a replay of a graph too big for the host fails cleanly, status 1).
vg_as_plain() {
    "$M" "$@" >/dev/null 2>&1 </dev/null
    local st=$?
    if [ $st -gt 2 ]; then fail=$((fail + 1)); echo "FAIL: memtris $* ends with status $st"; return; fi
    vg $st "$@"
}

# Every command a graph goes through.
graph_commands() {
    local f=$1 p
    vg 0 validate "$f"
    vg 0 schedule "$f" --format json
    vg 0 schedule "$f" --policy fifo
    vg 0 compare "$f" --placers all
    for p in first-fit best-fit pool coloring greedy-size xla greedy-conflicts best; do vg 0 plan "$f" --placer "$p" --format json; done
    vg 0 plan "$f" --svg "$TMP/plan.svg"
    vg_as_plain replay "$f" --backend host --format json -o "$TMP/replay.json"
    vg_as_plain replay "$f" --backend host --mode arena
    vg_as_plain replay "$f" --backend host --mode pool --format csv
}

group_samples() {
    local f
    for f in "$SRC"/samples/*.json; do graph_commands "$f"; done
    vg 0 view --replay "$TMP/replay.json" --help
}

# The test inputs: the good ones through every command, the bad ones refused.
group_inputs() {
    local f st
    for f in "$SRC"/tests/data/*.json "$SRC"/tests/data/*/*.json; do
        [ -f "$f" ] || continue
        if "$M" validate "$f" >/dev/null 2>&1; then graph_commands "$f"
        else
            st=$("$M" validate "$f" >/dev/null 2>&1; echo $?)
            vg "$st" validate "$f"
            vg "$st" schedule "$f"
            vg "$st" plan "$f"
        fi
    done
    vg 1 schedule "$TMP/no such file.json"
    printf '{"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 1, "BufId": 1}], "Edges": [[0, 1]]}' >"$TMP/bad.json"
    vg 1 compare "$TMP/bad.json"
    vg 2 plan --placer nope "$SRC/samples/demo.json"
    vg 2 schedule --bogus
    vg 1 replay "$SRC/samples/demo.json" --backend cuda --format json -o "$TMP/r.json" 2>/dev/null ||
        true   # cuda: no device here (status 1), or this build has none
}

group_gen() {
    local k
    for k in chain branch alloc-heavy huge random randwire train; do
        vg 0 gen "$k" -n 300 -o "$TMP/g.json"
        vg 0 schedule "$TMP/g.json" --format csv
    done
    vg 2 gen nope
}

# The TUI in a tmux session under memcheck: step, compare, timeline, placer,
# a replay on the host, then q.
group_tui() {
    if ! command -v tmux >/dev/null 2>&1; then
        echo "SKIP (part): needs tmux: the TUI under valgrind is not run (tmux is not installed)"
        return
    fi
    local sock="memtris-vg-$$" log="$TMP/tui.log" cmd i screen
    cmd=$(printf '%q ' env -u COLUMNS -u LINES LC_ALL=C.UTF-8 "${VG[@]}" --log-file="$log" "$M" --backend host \
        "$SRC/samples/demo.json")
    unset TMUX
    SHELL=/bin/bash tmux -L "$sock" -f /dev/null new-session -d -s vg -x 120 -y 35 "$cmd; echo EXIT=\$?; sleep 30"
    tmux_screen() { tmux -L "$sock" capture-pane -p -t vg 2>/dev/null; }
    tmux_keys() { tmux -L "$sock" send-keys -t vg "$@"; }
    tmux_wait() {   # tmux_wait TEXT: up to 60 s (memcheck is slow)
        for i in $(seq 600); do tmux_screen | grep -qF -- "$1" && return 0; sleep 0.1; done
        return 1
    }
    local ok=1
    step() {   # step WANT KEYS...: presses the keys, waits for WANT
        local want=$1
        shift
        [ $# -gt 0 ] && tmux_keys "$@"
        tmux_wait "$want" || { echo "the TUI under valgrind: '$want' did not show after: $*"; ok=0; }
    }
    step "step 0/61"
    step "step 3/61" Space Space Space
    step "Ready fifo" c
    step "Timeline:" c t
    step "placer best-fit: arena" a
    step "measured (host) peak" R
    step "EXIT=" End Home '?' Escape q
    if [ $ok -eq 1 ] && tmux_screen | grep -q "^EXIT=0" && grep -q "ERROR SUMMARY: 0 errors" "$log"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: the TUI under valgrind"
        tmux_screen | grep -v '^ *$' | tail -8
        grep -E "ERROR SUMMARY|definitely lost|indirectly lost|Invalid|uninitialised|at 0x|by 0x" "$log" | head -30
    fi
    tmux -L "$sock" kill-server 2>/dev/null
}

# A subset small enough for CI: two small samples through every command,
# the bad inputs, gen, and the TUI session.
group_ci() {
    graph_commands "$SRC/samples/demo.json"
    graph_commands "$SRC/samples/seed-example.json"
    vg 1 validate "$SRC/tests/data/bad-line3.json"
    vg 1 schedule "$TMP/no such file.json"
    vg 2 plan --placer nope "$SRC/samples/demo.json"
    vg 0 gen random -n 200 -o "$TMP/g.json"
    vg 0 compare "$TMP/g.json" --placers all
    group_tui
}

# Every group once ("ci" is a subset of the others).
groups=$(sed -n 's/^group_\([a-z0-9_]*\)() {.*/\1/p' "$0" | tr '\n' ' ')
if [ "$GROUP" = all ]; then
    for g in $groups; do [ "$g" = ci ] || "group_$g"; done
elif [[ " $groups " == *" $GROUP "* ]]; then
    "group_$GROUP"
else
    echo "unknown group '$GROUP' (one of: ${groups% })" >&2
    exit 2
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
