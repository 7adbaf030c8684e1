#!/usr/bin/env bash
# test_pyflakes.sh: the Python of tools/, tests/ and bench/ as pyflakes (Debian's pyflakes3)
# reads it: no unused import or variable, no undefined name, no import that shadows another.
# Exit 77 without pyflakes3, saying so (the README's test command installs it).
# Usage: test_pyflakes.sh SOURCE_DIR. Prints "N passed, M failed".
set -u
src=$1
if ! command -v pyflakes3 >/dev/null 2>&1; then
    echo "SKIP: needs pyflakes3: it is not installed (the README's test command installs it)"
    exit 77
fi
pass=0 fail=0
while IFS= read -r -d '' f; do
    if out=$(pyflakes3 "$f" 2>&1); then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: ${f#"$src"/}"
        echo "$out" | sed "s|^$src/||" | head -20
    fi
done < <(find "$src/tools" "$src/tests" "$src/bench" -name '*.py' -print0 | sort -z)
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
