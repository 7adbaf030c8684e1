#!/usr/bin/env bash
# test_explain_tmux.sh: the explanations whole at 80x24, the real binary under tmux: the why line
# at the lesson's stop that points at it, w's lists by ALLOC name (the two-buffer graph, the
# demo), every built-in lesson's narration never splitting a number from its unit, and the ready
# queue's name and key columns where the sizes are wide (resnet18_train).
# Usage: test_explain_tmux.sh MEMTRIS SRCDIR
set -u
bin=$1
src=$2
pass=0 fail=0
. "$(dirname "$0")/tmuxlib.sh"
tmux_setup explain
keys() { T send-keys -t "$session" "$@"; }
# start SESSION CMD...: CMD at 80x24 in $work, UTF-8.
start() {
    session=$1
    shift
    local cmd
    cmd=$(printf '%q ' env -u COLUMNS -u LINES LC_ALL=C.UTF-8 "$@")
    T new-session -d -s "$session" -x 80 -y 24 -c "$work" "cd $(printf '%q' "$work"); $cmd; echo EXIT=\$?; exec bash --norc --noprofile -i"
}
# joined: the screen's rows as one line, runs of spaces as one (a sentence wrapped across
# full-width rows reads whole).
joined() { screen | tr '\n' ' ' | tr -s ' '; }
# right: the right-hand panels' rows (after the left panel's border) joined the same way.
right() { screen | sed -n 's/.*││ *\(.*\)│$/\1/p' | tr '\n' ' ' | tr -s ' '; }
# check_whole WHAT TEXT [right]: ok when TEXT shows in the joined screen (or the right-hand
# panels) within ~10 s.
check_whole() {
    for _ in $(seq 100); do
        ${3:-joined} | grep -qF -- "$2" && { ok "$1"; return; }
        sleep 0.1
    done
    bad "$1 (expected '$2' whole)"
}
# The rows above the key bar that span the screen (the narration and the why): no row ends
# in a number whose unit starts the next, none ends in "=".
splits() {
    screen | awk '
        /^ / { line = $0; sub(/ +$/, "", line)
               if (prev ~ /[0-9]$/ && line ~ /^ *(B|KiB|MiB|GiB|TiB|ms|s|%)([ ,.;:)]|$)/) print prev " / " line
               if (line ~ / =$/) print line
               prev = line; next }
        { prev = "" }'
}
# why_cut: the why rows (between the last narration or panel and the key bar) end in a mark.
why_cut() { screen | grep -v '^F1' | tail -n 3 | grep -E '^ .*(…|~)$'; }

# The lesson's stop 2 says "the why line says why": it does, whole, at 80x24.
start tour "$bin" lesson fifo-vs-priority
check "the lesson opens" "Lesson 1/5"
keys n
check "stop 2" "Lesson 2/5 Where the orders part"
check_whole "the why line whole at stop 2" "priority: popped node 41 (free input, -1.0 MiB): the smallest change of 4 ready; next best node 4 (alloc block1.b1.conv1x1, +1.0 MiB)"
if [ -z "$(why_cut)" ]; then ok "no why row cut with a mark"; else bad "a why row cut: $(why_cut)"; fi
check_whole "the Compare panel's why whole at stop 2" "priority took node 41: change -1.0 MiB beats node 4's +1.0 MiB" right
keys q

# Every stop of every built-in lesson: the narration and the why wrap at words, never between
# a number and its unit, never after "=".
for name in $("$bin" lesson --list | awk '{print $1}'); do
    start "l-$name" "$bin" lesson "$name"
    if ! wait_for "Lesson 1/"; then
        bad "lesson $name opens"
        continue
    fi
    stops=$(screen | sed -n 's/.*Lesson 1\/\([0-9]*\).*/\1/p' | head -n 1)
    for i in $(seq "${stops:-1}"); do
        wait_for "Lesson $i/$stops" 50 || bad "lesson $name: stop $i"
        sleep 0.3
        s=$(splits)
        if [ -z "$s" ]; then ok "lesson $name stop $i: no number split from its unit"; else bad "lesson $name stop $i splits: $s"; fi
        keys n
    done
    keys q
done

# The greedy-loses stop 3 says "1 + 10 = 11.0 MiB": the "= 11.0 MiB" on one row.
start greedy "$bin" lesson greedy-loses
check "greedy-loses" "Lesson 1/4"
keys n n
check "its stop 3" "Lesson 3/4"
if screen | grep -qE '= 11\.0 MiB'; then ok "'= 11.0 MiB' on one row"; else bad "'= 11.0 MiB' split"; fi
# w on the two-buffer graph: both buffers by name, largest first, no "and 2 more".
keys n w
check "w at the optimum's stop" "Why exact is lower"
check "w names the larger buffer first" "10.0 MiB  tmp from step"
check "and the smaller" "1.0 MiB  acc from step"
if screen | grep -qF "more ("; then bad "w says 'and N more' for a graph with 2 buffers"; else ok "no 'and N more' with room for both"; fi
if [ "$(screen | grep -n 'tmp from' | cut -d: -f1)" -lt "$(screen | grep -n 'acc from' | cut -d: -f1)" ]; then
    ok "the largest first"
else
    bad "tmp (10 MiB) not above acc (1 MiB)"
fi
keys q

# w on the demo at 80x24: the sentence whole, the four buffers by name.
start demo "$bin" view "$src/samples/demo.json" --compare fifo
check "compare mode" "Ready fifo"
keys w
check_whole "w's sentence whole" "fifo holds 4 buffers priority does not, 7.5 MiB:" right
for n in "2.0 MiB  stem.conv" "2.0 MiB  block1.proj" "2.0 MiB  block2.b2.reduce" "1.5 MiB  block2.b3.pool"; do
    check "w names $n" "$n"
done
keys q

# The ready queue with wide sizes: priority's (change,type,id) key and the name stay.
start train "$bin" view "$src/samples/resnet18_train.json" -p priority
check "resnet18_train" "Ready priority"
keys g
check "the goto prompt" "Go to step"
keys 6 0 0 Enter
check "at step 600" "step 600/1139"
if screen | grep -qE '^│#.*name +(key|\(change,type,id\))'; then ok "the queue's header keeps name and key"; else bad "the queue's header lost its name or key"; fi
if screen | grep -qE '│ *1 .*\([-0-9]+,[0-2],[0-9]+\)'; then ok "the first row's key whole"; else bad "no whole key in the first row"; fi
keys c
check "compare mode" "Ready fifo"
if screen | grep -A1 -E '^│#.*name.*key' | grep -qE '\([-0-9]+,[0-2],[0-9]+\)'; then
    ok "compare mode's narrow panel keeps name and key"
else
    bad "compare mode's priority queue lost its name or key"
fi
keys q

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
