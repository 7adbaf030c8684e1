#!/usr/bin/env bash
# test_pyflakes.sh: the Python of tools/, tests/, bench/ and scripts/ (every
# .py file there) as pyflakes (Debian's pyflakes3) reads it: no unused import
# or variable, no undefined name, no import that shadows another. One pyflakes3
# over all of them (a start each cost more than the reading). Exit 77 without
# pyflakes3, saying so (the README's test command installs it).
# Usage: test_pyflakes.sh SOURCE_DIR. Prints "N passed, M failed".
set -u
src=$1
if ! command -v pyflakes3 >/dev/null 2>&1; then
    echo "SKIP: needs pyflakes3: it is not installed (the README's test command installs it)"
    exit 77
fi
cd "$src" || exit 1
mapfile -d '' files < <(find tools tests bench scripts -name '*.py' -not -path '*/__pycache__/*' -print0 | sort -z)
if [ "${#files[@]}" -eq 0 ]; then
    echo "FAIL: no Python found under tools/, tests/, bench/ and scripts/"
    echo "0 passed, 1 failed"
    exit 1
fi
out=$(pyflakes3 "${files[@]}" 2>&1)
st=$?
if [ "$st" -gt 1 ]; then     # 0: clean, 1: messages; anything else: pyflakes itself failed
    echo "FAIL: pyflakes3 ended with status $st:"
    echo "$out" | head -20
    echo "0 passed, 1 failed"
    exit 1
fi
# The files pyflakes names (each message starts "FILE:LINE:" or "FILE: ").
named=$(sed -nE 's/^([^:]+):( |[0-9]).*/\1/p' <<<"$out" | sort -u)
pass=0 fail=0
for f in "${files[@]}"; do
    if grep -qxF -- "$f" <<<"$named"; then
        fail=$((fail + 1))
        echo "FAIL: $f"
        grep -F -- "$f:" <<<"$out" | head -20
    else
        pass=$((pass + 1))
    fi
done
if [ "$st" -eq 1 ] && [ "$fail" -eq 0 ]; then   # messages, but on no file listed
    echo "FAIL: pyflakes3 reported:"
    echo "$out" | head -20
    fail=1
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
