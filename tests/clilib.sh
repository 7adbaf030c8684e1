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

# run_groups "G1 G2 ...": runs group_$GROUP (every group for "all"), prints
# "N passed, M failed" and returns non-zero on any failure.
run_groups() {
    if [ ! -x "$M" ]; then
        echo "FAIL: $M is not an executable"
        echo "0 passed, 1 failed"
        return 1
    fi
    if [ "$GROUP" = all ]; then
        for g in $1; do "group_$g"; done
    elif [[ " $1 " == *" $GROUP "* ]]; then
        "group_$GROUP"
    else
        echo "unknown group '$GROUP' (one of: $1)" >&2
        echo "0 passed, 1 failed"
        return 1
    fi
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
