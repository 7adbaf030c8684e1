#!/usr/bin/env bash
# test_lesson_tmux.sh: memtris lesson end to end: the real binary under tmux at 80x24, run from a
# folder outside the checkout (the built-in lessons and their graphs are compiled in), Space, n
# and p through a built-in lesson with other keys in between, the narration whole on screen; a
# teacher's lesson file next to its graph; a bad one refused with FILE:LINE:COLUMN and status 1.
# The training step's and the budget's lessons: each stop's figures on the screen, the sweep's
# from memtris budget. Usage: test_lesson_tmux.sh MEMTRIS SRCDIR
set -u
bin=$1
src=$2
pass=0 fail=0
. "$(dirname "$0")/tmuxlib.sh"
tmux_setup lesson
keys() { T send-keys -t "$session" "$@"; }
# start SESSION CMD...: CMD at 80x24 in $work (not the checkout), UTF-8.
start() {
    session=$1
    shift
    local cmd
    cmd=$(printf '%q ' env -u COLUMNS -u LINES LC_ALL=C.UTF-8 "$@")
    T new-session -d -s "$session" -x 80 -y 24 -c "$work" "cd $(printf '%q' "$work"); $cmd; echo EXIT=\$?; exec bash --norc --noprofile -i"
}

start tour "$bin" lesson fifo-vs-priority
check "the lesson opens at its first stop" "Lesson 1/5 Two orders of one graph"
check "its keys are on the narration's rule" "Space/n next  p back"
check "the narration's last line is whole at 80x24" " the Compare panel their peaks."
check "compare mode: both ready queues" "Ready fifo (1)"
keys Space
check "Space: the next stop" "Lesson 2/5 Where the orders part"
check "its step" "step 5/61"
check "its narration, wrapped at words" " step; d plays to the next parting."
keys Right Right
check "Right still steps in a lesson" "step 7/61"
keys n
check "n: the next stop, set up afresh" "Lesson 3/5 fifo's peak"
check "at fifo's peak" "step 30/61"
keys p
check "p: the stop before" "Lesson 2/5"
check "p sets its step again" "step 5/61"
keys n n n n
check "the last stop" "Lesson 5/5"
keys n
check "n at the last stop says so" "the last stop (5 of 5)"
keys '?'
check "? says what Space and p do in a lesson" "step forward; in a lesson: next stop"
keys Escape q
check "q quits with status 0" "EXIT=0"

# The training step's lesson at 80x24: each stop's figures, as the narration gives them, on
# the screen (the status bar, the curve, the Compare panel).
start train "$bin" lesson training-step
check "training-step: its first stop" "Lesson 1/6 The weights"
check "... the weights' 44.6 MiB live" "step 122/1139  forward  mem 44.6 MiB"
check "... c compares the framework's order with priority" " cVsPriority "
keys n
check "... the forward's last step, 58.5 MiB" "step 432/1139  forward  mem 58.5 MiB"
keys n
check "... the peak in the backward" "step 535/1139  backward  mem 123.8 MiB"
keys n
check "... the measured line" " measured "
check "... at 123.8 MiB" "123.8 MiB┤"
keys n
check "... every gradient live, the backward done" "step 891/1139  backward  mem 89.2 MiB"
keys n
check "... priority's peak" "priority peak 103.6 MiB (optimal) at step 498"
check "... what it saves" "saving 20.2 MiB (16.3%) with priority"
check "... the narration's last words whole" " MiB less than the framework's."
keys q
check "training-step: q quits" "EXIT=0"

# The budget's lesson at 80x24, and the sweep's figures its last stop gives, from memtris budget.
start budget "$bin" lesson budget
check "budget: its first stop" "Lesson 1/5 A budget line"
check "... greedy's plan at 90%" " budget 111.4 MiB (90% of 123.8 MiB): peak 111.3 MiB, 12 reruns, +9.57 ms"
check "... the budget's row on the curve" "budget 111.4 MiB ─"
keys n
check "... step 510 of the plan" "step 510/1183"
keys n
check "... w explains the rerun at 1171" "freed at step 510, rerun at 1171: kept, it peaks at 113.3 MiB > 111.4 MiB"
keys n
check "... priority's order fits as it is" " priority's order already fits in 90% (111.4 MiB): no reruns needed"
check "... its plan's peak" "peak 101.6 MiB"
keys n
check "... 82%: 20 reruns, 21.7 ms" " budget 101.5 MiB (82% of 123.8 MiB): peak 100.3 MiB, 20 reruns, +21.7 ms"
keys q
check "budget: q quits" "EXIT=0"
sweep=$("$bin" budget --sweep "$src/samples/resnet18_train.json" 2>&1)
said=$(grep '^say' "$src/samples/lessons/budget.lesson" | sed 's/^say //' | tr '\n' ' ')
for fig in "81.3% (100.6 MiB)" "43.8% (54.3 MiB)" "143.0 ms" "21.7 ms, 15.2%" "9.42 ms"; do
    case $said in *"$fig"*) ;; *) bad "the budget lesson does not say '$fig'" ;; esac
done
case $sweep in
*"least budget a plan was found for: 81.3% (100.6 MiB) recompute only, 43.8% (54.3 MiB) with offload"*) ok "the sweep's least budgets are the lesson's" ;;
*) bad "the sweep's least budgets: $sweep" ;;
esac
case $sweep in *"step 143.0 ms"*) ok "the sweep's step is the lesson's" ;; *) bad "the sweep's step: $sweep" ;; esac
if echo "$sweep" | grep -qE '^  100\.6 MiB +81\.3% +100\.3 MiB +21\.7 ms +15\.2% +20 '; then
    ok "the sweep's 81.3%: 21.7 ms, 15.2% of the step"
else bad "the sweep's 81.3% row: $sweep"; fi
if echo "$sweep" | grep -qE '^  54\.3 MiB +43\.8% +no plan found.* 54\.3 MiB +9\.42 ms '; then
    ok "the sweep's 43.8% with offload: 9.42 ms"
else bad "the sweep's 43.8% row: $sweep"; fi

# A teacher's lesson next to its graph, run from another folder.
mkdir -p "$work/class" "$work/elsewhere"
cp "$src/samples/demo.json" "$work/class/"
cat >"$work/class/peaks.lesson" <<'EOF'
title Two peaks
graph demo.json
compare fifo

stop Where fifo peaks
keys P P
say fifo starts every branch before it finishes any: here every branch's output is live.

stop
step 12
keys l
say The live list at step 12.
EOF
start own sh -c "cd elsewhere && exec \"\$0\" lesson ../class/peaks.lesson" "$bin"
check "a teacher's lesson: its first stop" "Lesson 1/2 Where fifo peaks"
check "its keys ran" "step 30/61"
keys n
check "a stop without a title shows the lesson's" "Lesson 2/2 Two peaks"
check "step N" "step 12/61"
keys q
check "q quits" "EXIT=0"

# A key given as one UTF-8 character (issue 45): 'keys / é Enter' types é into the find prompt
# as the TUI reads it from the terminal (get_wch), and a user typing é there finds the same.
cat >"$work/class/cafe.json" <<'EOF'
{"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 1024, "BufId": 1},
           {"Id": 1, "Op": "Matmul", "Inputs": [1], "Name": "plain"},
           {"Id": 2, "Op": "Relu", "Inputs": [1], "Name": "café_relu"},
           {"Id": 3, "Op": "FREE", "BufId": 1}],
 "Edges": [[0, 1], [1, 2], [2, 3]]}
EOF
printf 'title Accents\ngraph cafe.json\nstop Find\nkeys / é Enter\nsay é finds a name.\n' \
    >"$work/class/cafe.lesson"
printf 'stop Typing\nkeys / € 😀 Backspace\nsay The prompt takes any character.\n' \
    >>"$work/class/cafe.lesson"
start accents "$bin" lesson class/cafe.lesson
check "keys é: the stop found the node named with é" "node 2 (café_relu) pops at step 3"
check "... the find bar says what it found" "Find 'é'"
keys Escape Space
check "keys € 😀 Backspace: the prompt holds €, the emoji taken back whole" "Find node (id, name or op): €_"
keys Escape Escape / é
check "é typed on the terminal: the prompt shows it" "Find node (id, name or op): é_"
keys BSpace
check "Backspace takes é back whole" "Find node (id, name or op): _ "
keys é Enter
check "é typed and Enter: the same node as the lesson's" "node 2 (café_relu) pops at step 3"
keys Escape q
check "q quits" "EXIT=0"

# A bad lesson: refused before the UI, FILE:LINE:COLUMN, status 1.
printf 'graph demo.json\nstop\nsay hi\nkeys P PP\nstep 99\n' >"$work/class/bad.lesson"
out=$(cd "$work" && "$bin" lesson class/bad.lesson 2>&1 >/dev/null)
rc=$?
if [ $rc -eq 1 ]; then ok "a bad lesson exits with status 1"; else bad "a bad lesson: status $rc"; fi
case $out in
*"class/bad.lesson:4:8: error: unknown key 'PP'"*) ok "its error names line and column" ;;
*) bad "a bad lesson's message: $out" ;;
esac
printf 'graph demo.json\nstop\nsay hi\nstep 99\n' >"$work/class/far.lesson"
out=$("$bin" lesson --check "$work/class/far.lesson" 2>&1)
rc=$?
case "$rc $out" in
"1 "*"far.lesson:4:6: error: step 99 is past the graph's last step (61)"*) ok "a step past the graph: line and column" ;;
*) bad "a step past the graph: status $rc, $out" ;;
esac
out=$(cd "$work/elsewhere" && "$bin" lesson --check holes 2>&1)
case $out in
"holes (built in): 4 stops on ../demo.json (61 nodes): ok") ok "--check a built-in from any folder" ;;
*) bad "--check holes: $out" ;;
esac
out=$("$bin" lesson --list)
case $out in
*"fifo-vs-priority"*"greedy-loses"*"holes"*"training-step"*"budget"*) ok "--list lists the built-in lessons" ;;
*) bad "--list: $out" ;;
esac

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
