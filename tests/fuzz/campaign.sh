#!/usr/bin/env bash
# campaign.sh: a long libFuzzer campaign of one harness, one process (these
# machines have 2 cores), then the figures bench/RESULTS.md records: the
# date, the inputs run, their rate, libFuzzer's coverage (cov: edges, ft:
# features), the corpus it grew and the crashes it kept.
# Usage: tests/fuzz/campaign.sh BUILD HARNESS [INPUTS] [WORK]
#   BUILD    a build folder configured with -DMEMTRIS_FUZZ=ON (clang)
#   HARNESS  load, replay, tui, cli or write
#   INPUTS   how many inputs in all (default 10000000)
#   WORK     where the corpus grows (WORK/corpus-HARNESS, kept between
#            campaigns), crashes land (WORK/artifacts-HARNESS) and the log
#            goes (WORK/HARNESS.log); default ./fuzz-work
# The options match tests/fuzz/CMakeLists.txt's regression runs; the seed is
# random (the log says which).
set -eu
if [ $# -lt 2 ]; then
    sed -n '6,12p' "$0" >&2
    exit 2
fi
BUILD=$(cd "$1" && pwd)
H=$2
INPUTS=${3:-10000000}
WORK=${4:-fuzz-work}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
FUZZER=$BUILD/tests/fuzz/fuzz_$H
case $H in
    load) OPTS=(-dict="$SRC/tests/fuzz/graph.dict") ;;
    replay) OPTS=(-dict="$SRC/tests/fuzz/replay.dict") ;;
    tui) OPTS=(-max_len=128) ;;
    cli) OPTS=(-dict="$SRC/tests/fuzz/cli.dict" -max_len=512) ;;
    write) OPTS=(-max_len=256) ;;
    *) echo "campaign.sh: unknown harness '$H' (load, replay, tui, cli or write)" >&2; exit 2 ;;
esac
if [ ! -x "$FUZZER" ]; then
    echo "campaign.sh: no $FUZZER: configure $BUILD with -DMEMTRIS_FUZZ=ON and build it" >&2
    exit 2
fi
mkdir -p "$WORK/corpus-$H" "$WORK/artifacts-$H"
WORK=$(cd "$WORK" && pwd)
LOG=$WORK/$H.log
start=$(date +%s)
# A smaller quarantine than ASan's 256 MiB: fewer page faults, the same
# checks (use after free is still caught within the last 64 MiB freed).
status=0
# TMPDIR: fuzz_cli's scratch folder, left behind when a crash ends it.
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=64:detect_leaks=1} TMPDIR=$WORK \
    "$FUZZER" "$WORK/corpus-$H" "$SRC/tests/fuzz/corpus/$H" "${OPTS[@]}" -runs="$INPUTS" -timeout=10 \
    -rss_limit_mb=2048 -artifact_prefix="$WORK/artifacts-$H/" -print_final_stats=1 >"$LOG" 2>&1 || status=$?
secs=$(( $(date +%s) - start ))
last=$(grep -E '^#[0-9]+' "$LOG" | tail -1 || true)
units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$LOG")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$LOG")
cov=$(sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\)\/\([^ ]*\).*/cov \1, ft \2, corpus \3 inputs (\4)/p' <<<"$last")
crashes=$(find "$WORK/artifacts-$H" -type f | wc -l)
echo "$(date +%F) fuzz_$H: ${units:-?} inputs in ${secs} s (${rate:-?}/s), ${cov:-no coverage line}," \
     "$crashes crash file(s) in $WORK/artifacts-$H; exit status $status; log $LOG"
exit "$status"
