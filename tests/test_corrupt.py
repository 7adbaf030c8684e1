#!/usr/bin/env python3
"""test_corrupt.py: every sample cut short at 200 evenly spread byte positions,
and with a single bit flipped at 200 others, through `memtris schedule`.
A damaged file must end with status 1 and an error naming the place (FILE:LINE:COL,
or the node, buffer or edge involved), within a time limit: never a crash, a
hang or another status. When a damaged file is still a valid graph (a flip
inside a name, a digit of a size, white space), what memtris schedules must be
what the damaged text says: the seed's own algorithm run on Python's reading of
the same bytes gives the same order, memory and peak.
Usage: test_corrupt.py MEMTRIS SOURCE_DIR [POSITIONS]"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed_reference import seed_priority  # noqa: E402

exe, src = sys.argv[1], sys.argv[2]
npos = int(sys.argv[3]) if len(sys.argv) > 3 else 200
LIMIT_S = 60          # a hang, not a slow machine
failures = []
counts = {"refused": 0, "accepted": 0}

# An error line that names its place: FILE:LINE:COL, or the ids involved.
PLACE = re.compile(r":\d+:\d+: error: |\b(node|nodes|buffer|buffers|Edges\[\d+\]|Nodes\[\d+\]|Id)\b")


def strict_json(text):
    """Python's reading of the text, refusing what RFC 8259 refuses (NaN and
    the infinities), and duplicate keys, which readers resolve differently."""
    def no_constants(name):
        raise ValueError("not JSON: " + name)

    def pairs(kv):
        keys = [k for k, _ in kv]
        if len(set(keys)) != len(keys):
            raise ValueError("duplicate key")
        return dict(kv)
    return json.loads(text, parse_constant=no_constants, object_pairs_hook=pairs)


def check(path, what, data, whole):
    """Runs memtris on data (written to path) and judges the outcome."""
    with open(path, "wb") as f:
        f.write(data)
    try:
        r = subprocess.run([exe, "schedule", path, "--format", "json"], capture_output=True, timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        failures.append(f"{what}: no answer within {LIMIT_S} s (a hang)")
        return
    err = r.stderr.decode("utf-8", "replace")
    if r.returncode == 1:
        counts["refused"] += 1
        errors = [line for line in err.splitlines() if " error: " in line]
        if not errors:
            failures.append(f"{what}: status 1 without an error message: {err[:300]!r}")
        elif not all(line.startswith(path + ":") for line in errors):
            failures.append(f"{what}: an error that does not name the file: {errors[0][:300]!r}")
        elif not PLACE.search(errors[0]):
            failures.append(f"{what}: the first error names no place: {errors[0][:300]!r}")
        return
    if r.returncode != 0:
        failures.append(f"{what}: status {r.returncode} (a crash?): {err[-400:]!r}")
        return
    counts["accepted"] += 1
    if whole:               # the original bytes, or only trailing white space cut
        return
    try:
        g = strict_json(data.decode("utf-8"))
        order, memory, peak = seed_priority(g)
    except Exception as e:  # noqa: BLE001: any failure to read it is the finding
        failures.append(f"{what}: memtris accepted bytes that are not a graph ({type(e).__name__}: {e})")
        return
    out = json.loads(r.stdout)
    if out["order"] != order or out["memory"] != memory or out["peak"] != max(peak, 0):
        failures.append(f"{what}: accepted, but the schedule is not what the text says")


samples = sorted(glob.glob(os.path.join(src, "samples", "*.json")))
with tempfile.TemporaryDirectory(prefix="memtris-corrupt.") as tmp:
    for sample in samples:
        name = os.path.basename(sample)
        data = open(sample, "rb").read()
        n = len(data)
        path = os.path.join(tmp, name)
        for i in range(npos):
            cut = i * n // npos
            whole = data[:cut].rstrip() == data.rstrip()
            check(path, f"{name} cut at byte {cut}", data[:cut], whole)
        for i in range(npos):
            pos = (2 * i + 1) * n // (2 * npos)
            bit = 1 << (i % 8)
            damaged = data[:pos] + bytes([data[pos] ^ bit]) + data[pos + 1:]
            check(path, f"{name} byte {pos} ^ 0x{bit:02x}", damaged, False)

for f in failures[:40]:
    print("FAIL:", f)
if len(failures) > 40:
    print(f"... and {len(failures) - 40} more")
total = counts["refused"] + counts["accepted"]
print(f"{len(samples)} samples, {total} damaged files: {counts['refused']} refused with a place, "
      f"{counts['accepted']} still valid and read as written")
print(f"{total - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
