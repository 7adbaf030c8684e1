#!/usr/bin/env bash
# test_ui_budget_tmux.sh: the TUI's budget view end to end: the real binary under tmux at 80x24
# and 200x60, m, a percentage (80% for resnet18, 60% for a generated training step with
# latencies: where greedy finds a plan), Enter: the budget's label on the curve, the status
# bar's extra time and reruns as `memtris budget FILE --budget P% --solver greedy` gives them
# (its text and its JSON's extra_ms), w's explanation; a budget no plan fits refused with the
# view as it was; an empty answer back to the plain view. Usage: test_ui_budget_tmux.sh
# MEMTRIS SRCDIR. Then the budgets of a graph whose peak is 2^53+1 bytes, read exactly.
set -u
bin=$1
src=$2
pass=0 fail=0
. "$(dirname "$0")/tmuxlib.sh"
tmux_setup budget
py=/usr/bin/python3
[ -x $py ] || py=python3
keys() { T send-keys -t "$session" "$@"; }
# start SESSION W H FILE: memtris view FILE at W x H, UTF-8.
start() {
    session=$1
    local cmd
    cmd=$(printf '%q ' env -u COLUMNS -u LINES LC_ALL=C.UTF-8 "$bin" view "$4")
    T new-session -d -s "$session" -x "$2" -y "$3" -c "$work" "$cmd; echo EXIT=\$?; exec bash --norc --noprofile -i"
}
# ms MS: milliseconds as the TUI and memtris budget's text write them (util/units.c's units_ms).
ms() {
    $py -c '
import sys
v = float(sys.argv[1])
if not v > 0: print("0 ms")
elif v < 1: print("%.3g ms" % v)
elif v < 10: print("%.2f ms" % v)
elif v < 1000: print("%.1f ms" % v)
elif v < 60000: print("%.2f s" % (v / 1000))
else: print("%.1f min" % (v / 60000))' "$1"
}

"$bin" gen train --nodes 300 -o "$work/train300.json" >/dev/null || bad "gen train"
for fp in "$src/samples/resnet18_train.json:80" "$work/train300.json:60"; do
    f=${fp%:*}
    pct=${fp##*:}
    name=$(basename "$f")
    text=$("$bin" budget "$f" --budget "$pct%" --solver greedy)
    json=$("$bin" budget "$f" --budget "$pct%" --solver greedy --format json)
    budget=$(echo "$text" | head -1 | sed -n "s/.*: budget \([0-9.]* [KMGT]*i*B\) ($pct%.*/\1/p")
    extra=$(echo "$text" | sed -n 's/^extra time \(.*\): .*/\1/p')
    reruns=$(echo "$json" | $py -c 'import json,sys; print(json.load(sys.stdin)["reruns"])')
    from_json=$(ms "$(echo "$json" | $py -c 'import json,sys; print(repr(json.load(sys.stdin)["extra_ms"]))')")
    if [ -n "$budget" ] && [ -n "$extra" ] && [ "$extra" = "$from_json" ]; then
        ok "$name: memtris budget says budget $budget, extra $extra (JSON: $from_json), $reruns reruns"
    else
        bad "$name: memtris budget's figures: '$budget' '$extra' '$from_json'"
    fi
    for size in 80x24 200x60; do
        start "b$size" "${size%x*}" "${size#*x}" "$f"
        check "$name $size: the view opens" "step 0/"
        keys m
        check "$name $size: m asks for the budget" "Memory budget"
        keys "${pct:0:1}" "${pct:1:1}" % Enter
        check "$name $size: the budget's label on the curve" " budget $budget "
        check "$name $size: the status bar's budget and extra time" "budget $budget · extra +$extra"
        if [ "$size" = 200x60 ]; then
            check "$name $size: the status bar's reruns" "budget $budget · extra +$extra · $reruns reruns"
        fi
        if screen | head -1 | grep -qF "given"; then ok "$name $size: the plan steps under given"; else bad "$name $size: not under given"; fi
        keys w
        check "$name $size: w explains a rerun" " rerun at "
        if [ "$size" = 200x60 ]; then # 80x24 shows the shortest form that fits
            check "$name $size: ... when it was freed" " freed at step "
            check "$name $size: ... with the peak keeping it would have had" ", rerun at step "
        fi
        keys m
        for _ in $(seq 12); do keys BSpace; done
        keys Enter
        check "$name $size: an empty answer: the plain view" "budget cleared: the plain view of given"
        if screen | head -1 | grep -qF "budget"; then bad "$name $size: the budget stays in the status bar"; else ok "$name $size: the status bar has no budget"; fi
        keys q
        check "$name $size: q quits with status 0" "EXIT=0"
        T kill-session -t "$session"
    done
done

# No plan fits: the reason, and the view as it was.
start none 80 24 "$src/samples/transformer_block_train.json"
check "transformer: the view opens" "step 0/"
keys m 1 K i B Enter
check "a budget under every plan's least: refused" "no plan fits in 1.0 KiB; "
if screen | head -1 | grep -qF "given"; then ok "the view stays as it was"; else bad "the view changed"; fi
keys m 5 0 ' ' s w a p Enter
check "a bad answer: the reason" "after the budget: recompute, offload or recompute,offload"
keys m 9 2 % Enter
check "92%: a plan" "budget 20.7 MiB"
keys m BSpace BSpace BSpace 1 K i B Enter
check "then a budget no plan fits: refused" "no plan fits in 1.0 KiB; "
if screen | head -1 | grep -qF "budget 20.7 MiB"; then ok "the plan shown stays"; else bad "the plan shown went"; fi
keys m Escape
check "Esc in the prompt: the plain view" "budget cleared"
keys q
check "q quits" "EXIT=0"

# Budgets in integers (issue 45) at 80x24: on a graph whose budget-free peak is 2^53+1 bytes,
# the peak typed in bytes or as 100% fits (a double would read it as 2^53, a byte short), a
# byte less is refused in words that tell the two apart, 1.5 and 0x10 are refused whole, and
# the budget set is offered back exactly.
cat >"$work/huge.json" <<'JSON'
{"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 9007199254740991, "BufId": 1},
  {"Id": 1, "Op": "ALLOC", "Size": 2, "BufId": 2}, {"Id": 2, "Op": "mm", "Inputs": [1, 2]},
  {"Id": 3, "Op": "FREE", "BufId": 1}, {"Id": 4, "Op": "FREE", "BufId": 2}],
 "Edges": [[0, 2], [1, 2], [2, 3], [2, 4]]}
JSON
back() { for _ in $(seq "$1"); do keys BSpace; done; }
start huge 80 24 "$work/huge.json"
check "2^53+1: the view opens" "step 0/"
keys m 9007199254740993 Enter
check "2^53+1 bytes: the peak itself fits" "order already fits in 8.0 PiB: no reruns"
keys m
check "2^53+1 bytes: offered back exactly" "9007199254740993"
back 16
keys 100% Enter
check "100%: the peak itself fits" "already fits in 100% (8.0 PiB)"
keys m
back 4
keys 9007199254740992 Enter
check "2^53: a byte short, refused" "no plan fits in 8.0 PiB (9007199254740992 bytes); the least"
keys m
back 4
keys 1.5 Enter
check "1.5: refused" "the budget wants a size from 1 byte to 2^63-1 bytes"
check "1.5: the message whole, to its end" "not '1.5'"
keys m
back 4
keys -l 0x10 # literally: tmux reads 0x10 as a key's code
keys Enter
check "0x10: refused whole" "not '0x10'"
if screen | head -1 | grep -qF "budget 8.0 PiB"; then ok "refusals: the plan shown stays"; else bad "refusals: the plan shown went"; fi
keys q
check "2^53+1: q quits" "EXIT=0"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
