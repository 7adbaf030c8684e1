#!/usr/bin/env bash
# test_format.sh: every C, CUDA and header file of src/, tests/ and bench/ is
# as .clang-format writes it (clang-format --dry-run --Werror). 77 when
# clang-format is not installed (the README's test command installs it).
# Usage: test_format.sh SOURCE_DIR
set -u
SRC=$1
CF=$(command -v clang-format || command -v clang-format-14 || true)
if [ -z "$CF" ]; then
    echo "SKIP: needs clang-format: it is not installed (the README's test command installs it)"
    exit 77
fi
cd "$SRC" || exit 1
mapfile -d '' files < <(find src tests bench \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) \
                        -not -path 'bench/out/*' -print0 | sort -z)
if "$CF" --dry-run --Werror "${files[@]}" 2>"${TMPDIR:-/tmp}/memtris-format.$$"; then
    echo "${#files[@]} files formatted as .clang-format says"
    rm -f "${TMPDIR:-/tmp}/memtris-format.$$"
    exit 0
fi
grep -E '^[^ ].*: (error|warning):' "${TMPDIR:-/tmp}/memtris-format.$$" | cut -d: -f1 | sort -u |
    sed 's/^/FAIL: not formatted: /'
echo "(run: clang-format -i FILE)"
rm -f "${TMPDIR:-/tmp}/memtris-format.$$"
exit 1
