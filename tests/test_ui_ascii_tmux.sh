#!/usr/bin/env bash
# test_ui_ascii_tmux.sh: a terminal that cannot draw braille gets ASCII without LANG=C: under
# a UTF-8 locale at 80x24, TERM=vt100 and TERM=linux (view and lesson) draw no character past
# ASCII (no braille, no box drawing), while TERM=xterm-256color still draws both.
# Usage: test_ui_ascii_tmux.sh MEMTRIS SRCDIR
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
pass=0 fail=0
. "$(dirname "$0")/tmuxlib.sh"
tmux_setup ascii
keys() { T send-keys -t "$session" "$@"; }
# start SESSION TERM CMD...: CMD at 80x24 in $work under TERM, in a UTF-8 locale.
start() {
    session=$1
    local term=$2 cmd
    shift 2
    cmd=$(printf '%q ' env -u COLUMNS -u LINES -u LANGUAGE -u NO_COLOR LC_ALL=C.UTF-8 TERM="$term" "$@")
    T new-session -d -s "$session" -x 80 -y 24 -c "$work" "$cmd; echo EXIT=\$?; exec bash --norc --noprofile -i"
}
# non_ascii: how many bytes of the screen are past ASCII.
non_ascii() { screen | LC_ALL=C tr -d '\000-\177' | wc -c; }
has_braille() { screen | LC_ALL=C.UTF-8 grep -qP '[\x{2800}-\x{28FF}]'; }
has_box() { screen | LC_ALL=C.UTF-8 grep -qP '[\x{2500}-\x{257F}]'; }

# ascii_screen WHAT: the screen holds ASCII only.
ascii_screen() {
    local n
    n=$(non_ascii)
    if [ "$n" -eq 0 ]; then ok "$1: ASCII only"; else bad "$1: $n bytes past ASCII"; fi
}

for term in vt100 linux; do
    # The view on the demo at its peak. TERM=linux runs with --no-mouse: for that terminal
    # ncurses opens libgpm for the mouse, whose 10 bytes LeakSanitizer reports at exit in the
    # ASan build (memtris allocates none of them).
    opts=()
    [ "$term" = linux ] && opts=(--no-mouse)
    start "view-$term" "$term" "$bin" "${opts[@]}" "$src/samples/demo.json"
    check "TERM=$term: the view opens" "step 0/61"
    check "TERM=$term: ASCII borders" "+- Ready priority (1) -"
    keys P
    check "TERM=$term: P goes to the peak" "step 18/61"
    ascii_screen "TERM=$term, the view at the peak"
    keys l
    check "TERM=$term: l lists the live buffers" "+- Live at step 18 of priority -"
    ascii_screen "TERM=$term, the live list"
    keys q
    check "TERM=$term: q quits with status 0" "EXIT=0"
done

# A built-in lesson in compare mode (both curves, the narration).
start lesson vt100 "$bin" lesson fifo-vs-priority
check "TERM=vt100: the lesson opens" "Lesson 1/5"
keys n n
check "TERM=vt100: the lesson's third stop" "Lesson 3/5"
ascii_screen "TERM=vt100, the lesson at fifo's peak"
keys q
check "TERM=vt100: the lesson quits with status 0" "EXIT=0"

# A terminal that draws UTF-8 still gets braille and box drawing under the same locale.
start xterm xterm-256color "$bin" "$src/samples/demo.json"
check "TERM=xterm-256color: the view opens" "step 0/61"
keys P
check "TERM=xterm-256color: P goes to the peak" "step 18/61"
if has_box; then ok "TERM=xterm-256color: box drawing"; else bad "TERM=xterm-256color: no box drawing"; fi
if has_braille; then ok "TERM=xterm-256color: a braille curve"; else bad "TERM=xterm-256color: no braille"; fi
keys q
check "TERM=xterm-256color: q quits with status 0" "EXIT=0"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
