#!/usr/bin/env bash
# test_readme.sh: the README as a newcomer runs it. Its first command builds only the memtris
# binary with -j bounded by the cores and installs it onto the PATH before calling `memtris`;
# its test command is the one .ci/run reads; its example lesson is samples/two-peaks.lesson,
# byte for byte, and passes --check; every `memtris ...` line of its sh blocks runs as written
# from a folder holding the samples (the TUI ones under tmux at 80x24, quit with q, status 0);
# every command its table names has a --help.
# Usage: test_readme.sh MEMTRIS SRCDIR
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
readme=$src/README.md
pass=0 fail=0
. "$(dirname "$0")/tmuxlib.sh"
tmux_setup readme
expect() { if [ "$1" = 0 ]; then ok "$2"; else fail=$((fail + 1)); echo "FAIL: $2"; fi; }

# The first command: install, build the memtris target alone (-j"$(nproc)"), install, open.
first=$(awk '/^Install, build only the `memtris` binary/{f=1} f && /^apt-get/{print; exit}' "$readme")
case $first in
*' && cmake -S . -B build && cmake --build build --target memtris -j"$(nproc)" && cmake --install build && memtris') r=0 ;;
*) r=1 ;;
esac
expect $r "the first command builds the memtris target, -j the cores, installs, opens: $first"
case $first in *'-j '* | *'-j&'* | *'-j') r=1 ;; *) r=0 ;; esac
expect $r "the first command's -j is bounded"
# The test command, found as .ci/run and scripts/skipaudit.py find it.
testcmd=$(awk '/^Install, build and run every test/{f=1} f && /^apt-get/{print; exit}' "$readme")
case $testcmd in 'apt-get update && apt-get install -y '*' && scripts/check') r=0 ;; *) r=1 ;; esac
expect $r "the test command ends in scripts/check: $testcmd"

# The example lesson: the block after the line naming the file is the file.
lesson=samples/two-peaks.lesson
awk -v name="\`$lesson\`:" 'index($0, name) { f = 1; next } f && /^```/ { if (on) exit; on = 1; next } on' \
    "$readme" >"$work/readme.lesson"
if [ -s "$work/readme.lesson" ] && cmp -s "$work/readme.lesson" "$src/$lesson"; then
    ok "the README shows $lesson exactly"
else
    fail=$((fail + 1)); echo "FAIL: the README's lesson differs from $lesson:"
    diff "$work/readme.lesson" "$src/$lesson" | head -20
fi
out=$(cd "$work" && "$bin" lesson --check "$src/$lesson" 2>&1)
r=$?
case $out in *": 2 stops on demo.json (61 nodes): ok") ;; *) r=1 ;; esac
expect $r "lesson --check $lesson (from another folder): $out"

# Every `memtris ...` line of the sh blocks, from a folder holding the samples.
mkdir "$work/run"
ln -s "$src/samples" "$work/run/samples"
mkdir "$work/bin"
ln -s "$bin" "$work/bin/memtris"
awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on && /^memtris / { print }' "$readme" >"$work/examples"
n=$(wc -l <"$work/examples")
if [ "$n" -ge 10 ]; then ok "the README has $n memtris examples"; else bad "only $n memtris examples"; fi
tui=0
while IFS= read -r line; do
    read -r -a words <<<"$line"
    cmd=${words[1]:-}
    case $cmd in
    schedule | compare | validate | plan | place | replay | iterate | budget | whatif | gen) kind=text ;;
    lesson) case " ${words[*]} " in *" --list "* | *" --check "*) kind=text ;; *) kind=tui ;; esac ;;
    *) kind=tui ;;
    esac
    if [ $kind = text ]; then
        (cd "$work/run" && PATH="$work/bin:$PATH" "${words[@]}" >"$work/out" 2>"$work/err")
        r=$?
        expect $r "runs as written: $line (status $r$([ $r = 0 ] || echo ": $(head -c 300 "$work/err")"))"
        continue
    fi
    tui=$((tui + 1))
    session=tui$tui
    T new-session -d -s "$session" -x 80 -y 24 -c "$work/run" \
        "$(printf '%q ' env -u COLUMNS -u LINES -u LANGUAGE LC_ALL=C.UTF-8 PATH="$work/bin:$PATH" "${words[@]}"); echo EXIT=\$?; exec bash --norc --noprofile -i"
    if wait_for "step " 300; then
        T send-keys -t "$session" q
        check "the TUI example quits with status 0: $line" "EXIT=0"
    else
        bad "the TUI example opens on a step: $line"
    fi
done <"$work/examples"
if [ $tui -ge 4 ]; then ok "$tui of them open the TUI"; else bad "only $tui TUI examples"; fi

# The table names every command of --help, and each command it names has its --help.
awk -F'`' '/^\| `memtris / { split($2, w, " "); c = w[2]; gsub(/[][]/, "", c); print c }' "$readme" >"$work/table"
for c in $("$bin" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }'); do
    grep -qx -- "$c" "$work/table"
    expect $? "the README's table names memtris $c"
done
while IFS= read -r c; do
    "$bin" "$c" --help >/dev/null 2>&1
    expect $? "the table's memtris $c has a --help"
done <"$work/table"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
