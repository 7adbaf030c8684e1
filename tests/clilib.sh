# clilib.sh: the harness the command-line test scripts share (sourced, not run):
# a scratch directory, run a command into $OUT/$ERR/$rc, count checks, and run
# named groups. Sourced as `. clilib.sh NAME`; the script sets M and GROUP.
pass=0
fail=0
rc=0
# $TMP, removed on exit (made writable first: tests make read-only dirs).
TMP=$(mktemp -d "${TMPDIR:-/tmp}/memtris-${1:-cli}.XXXXXX") || exit 1
trap 'chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
OUT=$TMP/out
ERR=$TMP/err

# run CMD...: runs it with stdout in $OUT, stderr in $ERR and the status in $rc.
run() {
    "$@" >"$OUT" 2>"$ERR"
    rc=$?
}

ok() { pass=$((pass + 1)); }

bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
    echo "  exit status: $rc"
    echo "  stdout: $(head -c 600 "$OUT")"
    echo "  stderr: $(head -c 600 "$ERR")"
}

# expect_rc WANT DESC
expect_rc() {
    if [ "$rc" -eq "$1" ]; then ok; else bad "$2: exit status $rc, expected $1"; fi
}

# expect_grep FILE FIXED_STRING DESC
expect_grep() {
    if grep -qF -- "$2" "$1"; then ok; else bad "$3: '$2' not found in $(basename "$1")"; fi
}

expect_empty() {
    if [ ! -s "$1" ]; then ok; else bad "$2: $(basename "$1") is not empty"; fi
}

expect_nonempty() {
    if [ -s "$1" ]; then ok; else bad "$2: $(basename "$1") is empty"; fi
}

expect_same() {
    if cmp -s "$1" "$2"; then ok; else bad "$3: $(basename "$1") and $(basename "$2") differ"; fi
}

# py DESC SCRIPT ARGS...: runs python3 on SCRIPT (a string) with ARGS; a check.
py() {
    local desc=$1 script=$2
    shift 2
    if python3 -c "$script" "$@" >"$TMP/py.out" 2>&1; then ok
    else bad "$desc: $(tail -c 400 "$TMP/py.out")"; fi
}

# The groups a test script defines (each `group_NAME() {` at the start of a
# line), in the order they are written: the one list of them, read by
# run_groups here and by tests/CMakeLists.txt (memtris_script_test).
script_groups() {
    sed -n 's/^group_\([a-z0-9_]*\)() {.*/\1/p' "$1"
}

# run_groups: runs group_$GROUP of the calling script (every group for
# "all"), prints "N passed, M failed" and returns non-zero on any failure.
run_groups() {
    local groups
    groups=$(script_groups "${BASH_SOURCE[1]}" | tr '\n' ' ')
    if [ ! -x "$M" ]; then
        echo "FAIL: $M is not an executable"
        echo "0 passed, 1 failed"
        return 1
    fi
    if [ "$GROUP" = all ]; then
        for g in $groups; do "group_$g"; done
    elif [[ " $groups " == *" $GROUP "* ]]; then
        "group_$GROUP"
    else
        echo "unknown group '$GROUP' (one of: ${groups% })" >&2
        echo "0 passed, 1 failed"
        return 1
    fi
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
