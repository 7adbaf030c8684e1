#!/usr/bin/env bash
# test_live_tmux.sh: the live list (l) and the stacked curve's legend (C) end to end: the real
# binary under tmux at 80x24 on samples/resnet18_train.json stepped in its own order (given) at a
# step in the backward: every category's header with its total, in order (the figures computed
# here from the graph); buffers by their ALLOC names, no "b12" nor "node 48"; Tab gives the list
# the focus, End scrolls it to its last row, Enter shows a group whole and folds it; the legend
# names every category or ends in "+N"; no header cut. Usage: test_live_tmux.sh MEMTRIS SRCDIR
set -u
bin=$1
src=$2
pass=0 fail=0
. "$(dirname "$0")/tmuxlib.sh"
tmux_setup live
py=/usr/bin/python3
[ -x $py ] || py=python3
keys() { T send-keys -t "$session" "$@"; }
f=$src/samples/resnet18_train.json

# The step 150 past the backward's first node in Id order, and each category's header there
# (biggest first; units_bytes's figures), one a line after the step.
expect=$($py - "$f" <<'PY'
import json, sys
nodes = sorted(json.load(open(sys.argv[1]))["Nodes"], key=lambda n: n["Id"])
k = next(i for i, n in enumerate(nodes) if n.get("Phase") == "backward") + 150
size, cat, live = {}, {}, {}
for n in nodes[:k]:
    if n["Op"] == "ALLOC":
        size[n["BufId"]] = n["Size"]; cat[n["BufId"]] = n.get("Category", "other"); live[n["BufId"]] = 1
    elif n["Op"] == "FREE":
        live.pop(n["BufId"], None)
def units(b):
    if b < 1024: return "%d B" % b
    v, u = float(b), 0
    while v >= 1024 and u < 6: v /= 1024; u += 1
    if v >= 1023.95: v /= 1024; u += 1
    return "%.1f %s" % (v, ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"][u])
tot, cnt = {}, {}
for b in live:
    tot[cat[b]] = tot.get(cat[b], 0) + size[b]; cnt[cat[b]] = cnt.get(cat[b], 0) + 1
print(k)
for c in sorted(tot, key=lambda c: -(tot[c] + 1)):
    print("%s: %d buffer%s, %s" % (c, cnt[c], "" if cnt[c] == 1 else "s", units(tot[c])))
PY
)
step=$(echo "$expect" | head -1)
mapfile -t heads < <(echo "$expect" | tail -n +2)
[ "${#heads[@]}" -ge 5 ] && ok "${#heads[@]} categories live at step $step" || bad "categories at $step: ${heads[*]}"

# panel: the live panel's rows (the box that "Live at step" opens), one a line.
panel() {
    screen | $py -c '
import sys
rows = sys.stdin.read().split("\n")
top = next((i for i, r in enumerate(rows) if "Live at step" in r), None)
if top is None: sys.exit()
x = rows[top].index("\u250c\u2500 Live at step") if "\u250c\u2500 Live at step" in rows[top] else 0
end = rows[top].index("\u2510", x)
for r in rows[top:]:
    print(r[x:end + 1])
    if r[x:x + 1] == "\u2514": break'
}
# The rows of the list, the box's three top rows and its border left out.
list_rows() { panel | sed -n '4,$p' | sed '$d'; }

session=live
cmd=$(printf '%q ' env -u COLUMNS -u LINES LC_ALL=C.UTF-8 "$bin" view -p given "$f")
T new-session -d -s "$session" -x 80 -y 24 -c "$work" "$cmd; echo EXIT=\$?; exec bash --norc --noprofile -i"
check "the view opens" "step 0/"
keys g
keys "$step" Enter
check "at step $step, in the backward" "step $step/"
if screen | head -1 | grep -qF backward; then ok "the status bar says backward"; else bad "not in the backward"; fi
keys l
check "l lists what is live" "Live at step $step of given"
# Every header, whole, in order, at the top of the list.
got=$(list_rows | grep -oE '[a-z]+: [0-9]+ buffers?, [0-9.]+ [KMG]?i?B' | paste -sd'|')
want=$(printf '%s\n' "${heads[@]}" | paste -sd'|')
if [ "$got" = "$want" ]; then ok "every header, in order: $got"; else bad "headers: '$got', want '$want'"; fi
if list_rows | grep -qF "weight: 122 buffers, 44.6 MiB"; then ok "weight's total"; else bad "no weight: 122 buffers, 44.6 MiB"; fi
# Names, not ids.
if panel | grep -qE '(^|[ ])b[0-9]+[ ]|node [0-9]'; then bad "an id in the live list"; else ok "no id in the live list"; fi

# Tab to the list: its cursor shows.
for _ in 1 2 3 4 5; do
    panel | grep -qF $'\u25b8' && break
    keys Tab
    sleep 0.2
done
if panel | grep -qF $'\u25b8'; then ok "Tab gives the list the focus (its cursor)"; else bad "no cursor on the list"; fi
if panel | tail -1 | grep -qF " Enter folds "; then ok "its border says what Enter does"; else bad "no 'Enter folds' in the border"; fi
keys Home Enter
sleep 0.3
total=$(panel | tail -1 | sed -n 's/.* rows 1-[0-9]* of \([0-9]*\)[ ,].*/\1/p')
if [ -n "$total" ] && [ "$total" -gt 122 ]; then ok "Enter on weight: every weight listed ($total rows)"; else bad "Enter on weight: '$total' rows"; fi
if list_rows | grep -qE 'layer[0-9]\.[0-9]\.conv[0-9]\.weight '; then ok "weights by their ALLOC names"; else bad "no weight named"; fi
if panel | grep -qE '(^|[ ])b[0-9]+[ ]|node [0-9]'; then bad "an id in the opened list"; else ok "no id in the opened list"; fi
keys End
sleep 0.3
rows=$(panel | tail -1 | sed -n 's/.* rows \([0-9]*\)-\([0-9]*\) of \([0-9]*\)[ ,].*/\2 \3/p')
set -- $rows
if [ $# -eq 2 ] && [ "$1" = "$2" ] && [ "$2" = "$total" ]; then ok "End scrolls to the last row ($1 of $2)"; else bad "End: rows '$rows' of $total"; fi
if list_rows | tail -1 | grep -qF "${heads[${#heads[@]} - 1]%%:*}"; then ok "the last group at the end"; else bad "the last group is not at the end"; fi
if screen | head -1 | grep -qF "step $step/"; then ok "End moved the list, not the step"; else bad "End moved the step"; fi
# The why's rows (up to 4 of them, above the key bar): the details may wrap.
keys Home
keys Down
sleep 0.2
if screen | tail -5 | head -4 | grep -qE '^ (…|param\.)[^ ]*weight: [0-9.]+ [KM]iB at '; then ok "the buffer at the cursor: its details, by name"; else bad "no details by name"; fi
keys Up Enter
sleep 0.3
second=$(list_rows | sed -n 2p)
if echo "$second" | grep -qF "${heads[1]}"; then ok "Enter again folds weight: ${heads[1]} follows"; else bad "weight not folded: '$second'"; fi
keys End
sleep 0.2
if list_rows | tail -1 | grep -qE '[a-z]'; then ok "folded, End still reaches the last row"; else bad "an empty last row"; fi

# The stacked curve's legend: every category, or as many as fit and "+N".
keys l C
check "C stacks the curve" "Memory by category"
legend=$(screen | $py -c '
import re, sys
rows = sys.stdin.read().split("\n")
top = next(i for i, r in enumerate(rows) if "Memory by category" in r)
x = rows[top].rindex("\u250c", 0, rows[top].index("Memory by category"))
end = rows[top].index("\u2510", x)
bottom = next(r for r in rows[top + 1:] if r[x:x + 1] == "\u2514")
words = "input weight gradient optimizer activation workspace output other".split()
text = rows[top][x:end + 1] + " " + bottom[x:end + 1]
named = sum(1 for w in words if re.search(r" . %s " % w, text))
plus = re.search(r" \+([0-9]+) ", text)
print(named, plus.group(1) if plus else 0)')
set -- $legend
ncat=$($py -c 'import json,sys; print(len({n.get("Category","other") for n in json.load(open(sys.argv[1]))["Nodes"] if n["Op"] == "ALLOC"}))' "$f")
if [ $# -eq 2 ] && [ $(($1 + $2)) -eq "$ncat" ]; then ok "legend: $1 named + $2 = $ncat categories"; else bad "legend: '$legend' for $ncat categories"; fi
keys q
check "q quits with status 0" "EXIT=0"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
