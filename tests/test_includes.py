#!/usr/bin/env python3
"""test_includes.py: the shape of src/ that the layers promise, read off the
#include lines: no circle among the modules (foo.c with foo.h); each layer includes only the
layers below it (util <- sched <- gpu <- svg <- ui <- cli; defaults.h anyone), and inside the core
its folders likewise (sched/graph <- sched/policy <- sched/place <- sched/gen, sched/time <- sched/budget <- sched/whatif;
gen and time not each other); a folder's internal headers (*_internal.h) only from that folder;
curses only in src/ui/ui_curses.c; CUDA only in .cu files; the TUI's state
(src/ui/app*.c) includes no view; every file under 700 lines.
Usage: test_includes.py SOURCE_DIR   (prints each rule's verdict)"""
import os
import re
import sys

src = os.path.join(sys.argv[1], "src")
LAYERS = ["util", "sched", "gpu", "svg", "ui", "cli"]   # each may include those before it
# The core's folders, by rank: each may include those of a lower rank.
CORE = {"graph": 0, "policy": 1, "place": 2, "gen": 3, "time": 3, "budget": 4, "whatif": 5}
MAX_LINES = 700
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)

files = {}
for root, _, names in os.walk(src):
    for n in names:
        if n.endswith((".c", ".h", ".cu")):
            path = os.path.join(root, n)
            files[os.path.relpath(path, src)] = open(path, encoding="utf-8").read()


def layer(rel):
    top = rel.split(os.sep)[0]
    return top if top in LAYERS else None


def resolve(rel, name):
    """The file under src/ an #include "name" in rel means, or None."""
    for cand in (os.path.normpath(os.path.join(os.path.dirname(rel), name)), os.path.normpath(name)):
        if cand in files:
            return cand
    return None


edges, failures = {}, []
for rel, text in sorted(files.items()):
    edges[rel] = []
    for kind, name in INCLUDE.findall(text):
        if kind == "<":
            if re.match(r"n?curses", name) and rel != os.path.join("ui", "ui_curses.c"):
                failures.append(f"{rel} includes <{name}>: curses belongs to src/ui/ui_curses.c alone")
            if name.startswith("cuda") and not rel.endswith(".cu"):
                failures.append(f"{rel} includes <{name}>: CUDA belongs to .cu files")
            continue
        target = resolve(rel, name)
        if target is None:
            failures.append(f'{rel} includes "{name}", which is not a file of src/')
            continue
        edges[rel].append(target)
        a, b = layer(rel), layer(target)
        if b is not None and (a is None or LAYERS.index(b) > LAYERS.index(a)):
            failures.append(f"{rel} ({a or 'src'}) includes {target} ({b}): a layer includes only those below it")
        if a == "sched" == b:
            fa, fb = rel.split(os.sep)[1], target.split(os.sep)[1]
            if fa not in CORE or fb not in CORE:
                failures.append(f"{rel} or {target} is not in a folder of the core ({', '.join(CORE)})")
            elif fa != fb and CORE[fb] >= CORE[fa]:
                failures.append(f"{rel} (sched/{fa}) includes {target} (sched/{fb}): "
                                "graph <- policy <- place <- gen, time <- budget <- whatif")
        if target.endswith("_internal.h") and os.path.dirname(target) != os.path.dirname(rel):
            failures.append(f"{rel} includes {target}: a folder's internal header is its own")
        base = os.path.basename(rel)
        if a == "ui" and base.startswith("app") and os.path.basename(target).startswith("view"):
            failures.append(f"{rel} includes {target}: the app's state includes no view")
    lines = text.count("\n")
    if lines >= MAX_LINES:
        failures.append(f"{rel} has {lines} lines (the limit is {MAX_LINES})")

# A circle among modules (foo.c with foo.h is the module foo): the code of
# one uses another whose code uses it back. A header without code (an
# internal header, a table of declarations) is not a module of its own:
# what it includes counts for whoever includes it.
def module(rel):
    return os.path.splitext(rel)[0]


has_code = {module(f) for f in files if f.endswith((".c", ".cu"))}


def uses(f, seen):
    """The modules with code that file f reaches, through headers without code."""
    out = set()
    for t in edges.get(f, []):
        if module(t) in has_code:
            out.add(module(t))
        elif t not in seen:
            seen.add(t)
            out |= uses(t, seen)
    return out


medges = {}
for f in edges:
    if module(f) in has_code:
        medges.setdefault(module(f), set()).update(m for m in uses(f, {f}) if m != module(f))
edges = {m: sorted(ts) for m, ts in medges.items()}

colour, stack = {}, []


def visit(f):
    colour[f] = 1
    stack.append(f)
    for t in edges.get(f, []):
        if colour.get(t) == 1:
            failures.append("a circle of includes: " + " -> ".join(stack[stack.index(t):] + [t]))
        elif not colour.get(t):
            visit(t)
    stack.pop()
    colour[f] = 2


for f in sorted(edges):
    if not colour.get(f):
        visit(f)

nedges = sum(len(v) for v in edges.values())
for f in failures:
    print("FAIL:", f)
print(f"{len(files)} files in {len(edges)} modules, {nedges} module includes: "
      f"{'no circle, layers kept' if not failures else str(len(failures)) + ' problems'}")
sys.exit(1 if failures else 0)
