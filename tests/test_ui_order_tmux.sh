#!/usr/bin/env bash
# test_ui_order_tmux.sh: a training step opens on the framework's order, end to end: the real
# binary under tmux at 80x24 and 120x40 on samples/resnet18_train.json: given stepped, named so
# (the status bar where it has room, the first message at 80x24), c in the key bar comparing it
# with priority and saying what priority saves; -p, --compare and a graph without Phase or
# Category as before; m plans from the order on screen, priority's fitting 90% as it is, with
# the budget memtris budget gives. Usage: test_ui_order_tmux.sh MEMTRIS SRCDIR
set -u
bin=$1
src=$2
pass=0 fail=0
. "$(dirname "$0")/tmuxlib.sh"
tmux_setup order
keys() { T send-keys -t "$session" "$@"; }
f=$src/samples/resnet18_train.json
# start SESSION W H ARGS...: memtris view ARGS at W x H, UTF-8.
start() {
    session=$1
    local w=$2 h=$3 cmd
    shift 3
    cmd=$(printf '%q ' env -u COLUMNS -u LINES LC_ALL=C.UTF-8 "$bin" view "$@")
    T new-session -d -s "$session" -x "$w" -y "$h" -c "$work" "$cmd; echo EXIT=\$?; exec bash --norc --noprofile -i"
}
first() { screen | head -1; }

start small 80 24 "$f"
check "80x24: a training step opens on given" "  given  step 0/1139"
check "... the first message says what given is and what c does" " given: the framework's own order; c compares it with priority"
check "... c in the key bar" " cVsPriority "
keys c
check "c: compare mode against priority" "Ready priority (143)"
check "... what priority saves over the framework's order" " priority saves 20.2 MiB (16.3%) over the framework's order"
check "... the Compare panel's figures" "priority peak 103.6 MiB (optimal) at step 498"
check "... the key bar's c leaves it" " cCompare "
keys c
check "c again: the framework's order alone" " cVsPriority "
keys q
check "q quits" "EXIT=0"
T kill-session -t "$session"

start wide 120 40 "$f"
check "120x40: the status bar names the framework's order" "  given (the framework's order)  step 0/1139"
check "... the first message whole" " given: the framework's own order, as the file lists it; c compares it with priority: what memtris saves over it"
keys m 9 0 % Enter
check "m on given: greedy's plan, as memtris budget's" " budget 111.4 MiB (90% of 123.8 MiB): peak 111.3 MiB, 12 reruns, +9.57 ms"
keys q
T kill-session -t "$session"

out=$("$bin" budget "$f" --budget 90% --solver greedy)
case $out in
*"budget 111.4 MiB (90% of the budget-free peak), budget-free peak 123.8 MiB"*"peak 111.3 MiB"*", 12 reruns"*"extra time 9.57 ms"*) ok "memtris budget: the same budget and plan" ;;
*) bad "memtris budget --budget 90%: $out" ;;
esac

start prio 80 24 -p priority "$f"
check "-p priority: priority stepped" "  priority  step 0/1139"
if screen | grep -qF "VsPriority"; then bad "-p priority: c compares with priority"; else ok "-p priority: c is Compare"; fi
keys m 9 0 % Enter
check "m on priority: its order fits 90% as it is" " priority's order already fits in 90% (111.4 MiB): no reruns needed"
check "... its plan's peak on the curve" "peak 101.6 MiB"
check "... no extra time" "extra +0 ms"
keys w
check "w: nothing reruns" "the plan reruns nothing: it fits in 111.4 MiB as it is"
keys m BSpace BSpace BSpace Enter
check "an empty answer: back to priority" "budget cleared: the plain view of priority"
keys q
T kill-session -t "$session"

start cfifo 80 24 --compare fifo "$f"
check "--compare fifo: given against fifo" "Ready fifo (143)"
check "... given stepped" "given mem 0 B"
keys q
T kill-session -t "$session"
start cgiven 80 24 --compare given "$f"
check "--compare given: priority against given" "Ready given (143)"
check "... priority stepped" "priority mem 0 B"
keys q
T kill-session -t "$session"
start cprio 80 24 --compare priority "$f"
check "--compare priority: given against priority" "Ready priority (143)"
check "... given stepped" "given mem 0 B"
keys q
T kill-session -t "$session"

out=$("$bin" view -p priority --compare priority "$f" 2>&1)
rc=$?
case "$rc $out" in
"2 "*"--compare needs a policy other than priority"*) ok "-p priority --compare priority: a usage error" ;;
*) bad "-p priority --compare priority: status $rc, $out" ;;
esac
# the graph decides the stepped policy: on a terminal, once it is read
start cdemo 80 24 --compare priority "$src/samples/demo.json"
check "--compare priority on a graph without Phases: a usage error" "--compare needs a policy other than priority"
check "... status 2" "EXIT=2"
T kill-session -t "$session"

start demo 80 24 "$src/samples/demo.json"
check "a graph without Phase or Category opens on priority" "  priority  step 0/61"
check "... c is Compare" " cCompare "
keys q
T kill-session -t "$session"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
