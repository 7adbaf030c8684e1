#!/usr/bin/env bash
# test_paths.sh: the suite must pass wherever the repository sits and
# whatever the user's environment. Copies the working tree into a deep path
# with spaces in it (at least 150 characters, spaces in more than two of its
# folders: longer than a terminal's line, so that a test that assumes a
# path fits one fails here first), builds memtris there (a build folder with
# a space too), and runs the TUI tmux test, the command-line tests and the
# progress tests from there, from
# another working directory, with HOME, TMPDIR, TZ, the locale, TERM,
# COLUMNS/LINES and NO_COLOR all changed. Usage: test_paths.sh SOURCE_DIR [CC]
set -u
SRC=$1
CC_USED=${2:-cc}
pass=0 fail=0

root=$(mktemp -d "${TMPDIR:-/tmp}/memtris ci.XXXXXX") || exit 1
trap 'chmod -R u+w "$root" 2>/dev/null; rm -rf "$root"' EXIT
deep="$root/a very/long/directory/name/that a user/might have/for their own/projects (2026)/and some/more folders/of a checkout/of the sources/for a test/memtris"
mkdir -p "$deep" "$root/home dir" "$root/tmp dir" "$root/elsewhere dir"
echo "copy: $deep (${#deep} characters)"
if [ ${#deep} -lt 150 ]; then
    echo "FAIL: the deep path has ${#deep} characters, fewer than 150"
    echo "0 passed, 1 failed"
    exit 1
fi

# The working tree as it is (tracked and untracked files git does not
# ignore); a plain copy without the build folders when it is not a git checkout.
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
        tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -C "$deep" -xf - || exit 1
else
    cp -a "$SRC/." "$deep/" && rm -rf "$deep"/build*
fi

bin="$deep/build dir/memtris"
# RelWithDebInfo's flags but -g: the same machine code (objdump -d the same), 15% less
# to compile; nothing here reads the debug information.
if ! CC=$CC_USED cmake -S "$deep" -B "$deep/build dir" -DMEMTRIS_CUDA=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" >"$root/build.log" 2>&1 ||
   ! cmake --build "$deep/build dir" -j2 --target memtris failmalloc >>"$root/build.log" 2>&1; then
    tail -30 "$root/build.log"
    echo "FAIL: memtris does not build from $deep"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "ok: memtris builds in a deep path with spaces"
pass=$((pass + 1))

# Everything the tests might lean on, changed: a fresh HOME, a TMPDIR with a
# space, a time zone 14 hours from UTC, the C locale (not UTF-8), another
# TERM, COLUMNS and LINES that a curses program would take as its size, and
# NO_COLOR.
export HOME="$root/home dir" TMPDIR="$root/tmp dir" TZ=Pacific/Kiritimati LANG=C LC_ALL=C TERM=vt100 \
    COLUMNS=33 LINES=7 NO_COLOR=1
cd "$root/elsewhere dir" || exit 1

# each SUITE: name, then the command; its last line is "N passed, M failed"
suite() {
    local name=$1 out
    shift
    out=$("$@" 2>&1)
    local st=$?
    if [ $st -eq 0 ]; then
        pass=$((pass + 1))
        echo "ok: $name from the deep path ($(echo "$out" | tail -1))"
    else
        fail=$((fail + 1))
        echo "FAIL: $name from the deep path (status $st):"
        echo "$out" | grep -E "FAIL|Error|error|passed" | head -40
    fi
}
T=$deep/tests
suite "the TUI under tmux" bash "$T/test_tui_tmux.sh" "$bin" "$deep" "$deep/build dir/tests/libfailmalloc.so"
suite "test_cli" bash "$T/test_cli.sh" "$bin" "$deep"
suite "test_plan" bash "$T/test_plan.sh" "$bin" "$deep"
suite "test_replay_cli" bash "$T/test_replay_cli.sh" "$bin" "$deep"
suite "test_gen_cli" bash "$T/test_gen_cli.sh" "$bin"
suite "test_progress" bash "$T/test_progress.sh" "$bin" "$deep"
suite "test_samples" python3 "$T/test_samples.py" "$bin" "$deep"
suite "seed_reference" python3 "$T/seed_reference.py" "$bin"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
