#!/usr/bin/env python3
"""test_structure.py: sizes and calls that the layers promise beyond includes:
no function in src/ longer than 120 lines (signature to closing brace), no file
in src/ or tests/ of 700 lines or more, and no two files of src/ that call each
other (read off the built objects with nm: file A calls B when A needs a
function that B defines; a table listing B's data, as the policy and placer
tables do, is not a call). Usage: test_structure.py SOURCE_DIR BUILD_DIR"""
import os
import re
import subprocess
import sys

root, build = sys.argv[1], sys.argv[2]
MAX_FUNC, MAX_LINES = 120, 700
failures = []

# Functions: clang-format puts a definition's braces in column 0.
SIG = re.compile(r"^[A-Za-z_].*\)\s*$")
for top in ("src", "tests"):
    for d, _, names in os.walk(os.path.join(root, top)):
        for n in sorted(names):
            if not n.endswith((".c", ".h", ".cu", ".py", ".sh")):
                continue
            path = os.path.join(d, n)
            rel = os.path.relpath(path, root)
            lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
            if len(lines) - 1 >= MAX_LINES:
                failures.append(f"{rel} has {len(lines) - 1} lines (the limit is {MAX_LINES})")
            if top != "src" or not n.endswith((".c", ".cu")):
                continue
            start = None
            for i, line in enumerate(lines):
                if line == "{" and i > 0:
                    # the signature may span lines: go back to its first line
                    j = i - 1
                    while j > 0 and not SIG.match(lines[j]) and lines[j].startswith((" ", "\t")):
                        j -= 1
                    start = j
                elif line.startswith("}") and start is not None:
                    size = i - start + 1
                    if size > MAX_FUNC:
                        name = re.findall(r"(\w+)\s*\(", " ".join(lines[start:start + 3]))
                        failures.append(f"{rel}:{start + 1}: {name[0] if name else '?'} has {size} lines "
                                        f"(the limit is {MAX_FUNC})")
                    start = None

# Calls between files, from the objects of src/'s libraries.
objs = []
for d, _, names in os.walk(build):
    if "CMakeFiles" not in d or os.sep + "tests" in d or os.sep + "bench" in d:
        continue
    for n in names:
        if n.endswith(".o") and "memtris_" in d:
            objs.append(os.path.join(d, n))


def nm(*args):
    """nm over every object at once (a start of nm costs a quarter of a second here): each
    object's lines, by object. nm heads each object's lines with "PATH:" when it reads more
    than one."""
    out = subprocess.run(["nm", *args, *objs], capture_output=True, text=True).stdout if objs else ""
    heads = {o + ":": o for o in objs}
    lines, cur = {o: [] for o in objs}, objs[0] if len(objs) == 1 else None
    for line in out.splitlines():
        if line in heads:
            cur = heads[line]
        elif line.strip() and cur is not None:
            lines[cur].append(line)
    return lines


def source_of(o):
    return re.sub(r"\.o$", "", o.split(".dir" + os.sep, 1)[1])


defines, needs = {}, {}
for o, lines in nm("--defined-only", "-g").items():
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TW":  # functions
            defines.setdefault(parts[2], source_of(o))
for o, lines in nm("-u").items():
    needs[source_of(o)] = {line.split()[-1] for line in lines}
uses = {f: {defines[s] for s in syms if s in defines and defines[s] != f} for f, syms in needs.items()}
pairs = sorted({tuple(sorted((a, b))) for a, bs in uses.items() for b in bs if a in uses.get(b, ())})
for a, b in pairs:
    failures.append(f"{a} and {b} call each other")
if not objs:
    failures.append(f"no objects of src/ under {build}: build first")

for f in failures:
    print("FAIL:", f)
print(f"{len(objs)} objects, {len(pairs)} pairs calling each other, "
      f"{'sizes kept' if not failures else str(len(failures)) + ' problems'}")
sys.exit(1 if failures else 0)
