#!/usr/bin/env python3
"""test_structure.py: sizes and uses that the layers promise beyond includes:
no function in src/ longer than 120 lines (signature to closing brace), no file
in src/ or tests/ of 700 lines or more, and no files of src/ that use one
another in a cycle (two that use each other, or more round a ring). File A
uses B when, read off the built objects (objdump's symbols and relocations),
A calls a function B defines, or A's code reads or writes B's data, or when A
calls an inline function of B's header (foo.h's belong to foo.c), whose body
counts as B's own code; a table listing B's const objects, as the policy and
placer tables do, is not a use, nor is the table's own file's code reading an
object it lists (clang folds a walk over the table into one test per entry).
It prints how many uses of each kind it checked and the cycles it found
through each. Usage: test_structure.py SOURCE_DIR BUILD_DIR"""
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

# Uses between files, from the objects of src/'s libraries and the inline functions of its
# headers; a cycle among them is a failure.
objs = []
for d, _, names in os.walk(build):
    if "CMakeFiles" not in d or os.sep + "tests" in d or os.sep + "bench" in d:
        continue
    for n in names:
        if n.endswith(".o") and "memtris_" in d:
            objs.append(os.path.join(d, n))


def source_of(o):
    return re.sub(r"\.o$", "", o.split(".dir" + os.sep, 1)[1])


def objdump():
    """objdump -t -r over every object at once (a start costs a quarter of a second here):
    each object's lines, by object, under the head "PATH:     file format ..." it writes."""
    out = subprocess.run(["objdump", "-t", "-r", *objs], capture_output=True, text=True).stdout if objs else ""
    lines, cur = {o: [] for o in objs}, None
    for line in out.splitlines():
        head = re.match(r"^(.+):\s+file format ", line)
        if head and head.group(1) in lines:
            cur = head.group(1)
        elif cur is not None:
            lines[cur].append(line)
    return lines


# defines: symbol -> (file, "function", "const" (read-only data) or "data");
# refs: file -> {(symbol, from its code)}: the relocations of its code and data.
SYMBOL = re.compile(r"^[0-9a-f]+ ([gw]).{5}[FO ] (\S+)\t[0-9a-f]+ (\S+)$")
RELOC = re.compile(r"^[0-9a-f]+ +\S+ +([A-Za-z_][\w.]*)")
defines, refs = {}, {}
for o, lines in objdump().items():
    f, section = source_of(o), None
    refs[f] = set()
    for line in lines:
        sym, rec = SYMBOL.match(line), re.match(r"^RELOCATION RECORDS FOR \[(.*)\]:$", line)
        if sym and sym.group(2) != "*UND*":
            sec = sym.group(2)
            kind = ("function" if sec.startswith(".text") else
                    "const" if sec.startswith((".rodata", ".data.rel.ro")) else "data")
            defines.setdefault(sym.group(3), (f, kind))
        elif rec:
            section = rec.group(1)
        elif section and not section.startswith((".debug", ".eh_frame", ".note", ".comment")):
            r = RELOC.match(line)
            if r:
                refs[f].add((r.group(1), section.startswith(".text")))

# uses: (A, B) -> {(kind, symbol)}: A calls a function of B ("call", from its code or a table
# of functions), or its code reads or writes B's data, or any of it lists B's writable data
# ("data"). A table listing other files' const objects (the policies of policy_table.c, the
# placers of place_table.c, the generators of gen_kinds.c) is no use of them: it is the index
# they are found by ("listed").
uses, listed = {}, set()


def use(a, b, kind, sym):
    if a != b:
        uses.setdefault((a, b), set()).add((kind, sym))


for f, rs in refs.items():
    for sym, code in rs:
        if sym in defines and defines[sym][0] != f and defines[sym][1] == "const" and not code:
            listed.add((f, sym))
for f, rs in refs.items():
    for sym, code in rs:
        if sym not in defines or defines[sym][0] == f:
            continue
        b, kind = defines[sym]
        if kind == "function":
            use(f, b, "call", sym)
        elif kind == "const" and (f, sym) in listed:
            # its table; or its code, where the compiler folded a walk over the table into
            # one test per entry (clang does in policy_find)
            continue
        else:
            use(f, b, "data", sym)

# A header's inline function is its file's code compiled where it is used: a file that uses
# one uses the header's own .c (foo.h's is foo.c), and that .c uses what the body uses.
files, included = {}, {}  # the code of src/'s files, and the names they #include
for d, _, names in os.walk(os.path.join(root, "src")):
    for n in names:
        if n.endswith((".c", ".cu", ".h")):
            path = os.path.join(d, n)
            text = open(path, encoding="utf-8", errors="replace").read()
            rel = os.path.relpath(path, os.path.join(root, "src"))
            included[rel] = re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.M)
            # comments, strings and characters out: only code names things
            text = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'',
                          lambda m: " " if m.group(0)[0] == "/" else '""', text, flags=re.S)
            files[rel] = text


def own_source(rel):
    """The file of objects' names (source_of) that a header's inline functions belong to."""
    base = os.path.splitext(rel)[0]
    for ext in (".c", ".cu"):
        if base + ext in files:
            return re.sub(r"^(util|sched|gpu|ui|cli)" + re.escape(os.sep), "", base + ext)
    return None


def includes(rel):
    out = []
    for name in included[rel]:
        for cand in (os.path.normpath(os.path.join(os.path.dirname(rel), name)), os.path.normpath(name)):
            if cand in files:
                out.append(cand)
                break
    return out


def reach(rel, seen=None):
    """The headers rel includes, directly or through others."""
    seen = set() if seen is None else seen
    for h in includes(rel):
        if h not in seen:
            seen.add(h)
            reach(h, seen)
    return seen


NAMES = re.compile(r"(?<![\w.])(?<!->)([A-Za-z_]\w*)")  # not a member's
inlines = {}  # name -> (header, its .c, the names its body uses)
for rel, text in files.items():
    if not rel.endswith(".h"):
        continue
    for m in re.finditer(r"\bstatic\s+inline\b[^;{()]*?\b(\w+)\s*\(", text):
        at = text.find("{", m.end())
        if at < 0 or ";" in text[m.end():at]:
            continue  # a declaration
        depth, end = 0, at
        for end in range(at, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        inlines[m.group(1)] = (rel, own_source(rel), set(NAMES.findall(text[at:end])))
for name, (h, owner, body) in inlines.items():
    for sym in body if owner else ():
        if sym in defines:
            use(owner, defines[sym][0], "inline", f"{name} uses {sym}")
        elif sym in inlines and inlines[sym][1] and sym != name:
            use(owner, inlines[sym][1], "inline", f"{name} uses {sym}")
for rel, text in files.items():
    if not rel.endswith((".c", ".cu")):
        continue
    f, seen = own_source(rel), reach(rel)
    for sym in set(NAMES.findall(text)) & inlines.keys():
        h, owner, _ = inlines[sym]
        if h in seen and owner:
            use(f, owner, "inline", sym)


def cycles(kinds):
    """The groups of two or more files that reach each other by the uses of those kinds (the
    strongly connected components, Tarjan's way without recursion), each sorted."""
    succ = {}
    for (a, b), how in uses.items():
        if any(k in kinds for k, _ in how):
            succ.setdefault(a, set()).add(b)
    index, low, on, stack, out = {}, {}, set(), [], []
    for v0 in sorted(succ):
        if v0 in index:
            continue
        index[v0] = low[v0] = len(index)
        stack.append(v0)
        on.add(v0)
        work = [(v0, iter(sorted(succ.get(v0, ()))))]
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    group = []
                    while not group or group[-1] != v:
                        group.append(stack.pop())
                        on.discard(group[-1])
                    if len(group) > 1:
                        out.append(sorted(group))
            elif w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                on.add(w)
                work.append((w, iter(sorted(succ.get(w, ())))))
            elif w in on:
                low[v] = min(low[v], index[w])
    return out


def way_round(g):
    """The shortest way from g's first file through g back to it."""
    prev, queue = {g[0]: None}, [g[0]]
    for v in queue:
        for w in sorted(b for (a, b) in uses if a == v and b in g):
            if w == g[0]:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1] + [g[0]]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return list(g)


def said(a, b):
    """A uses B: how, the first three names of each kind."""
    parts = []
    for kind, word in (("call", "calls"), ("data", "uses the data"), ("inline", "uses the inline")):
        names = sorted(s for k, s in uses[(a, b)] if k == kind)
        if names:
            parts.append(f"{word} {', '.join(names[:3])}{', ...' if len(names) > 3 else ''}")
    return f"{a} {' and '.join(parts)} of {b}"


# Each cycle by what closes it: calls alone, or data uses with them, or inline functions too.
KINDS = ("call", "data", "inline")
groups, of_calls, with_data = cycles(KINDS), cycles(KINDS[:1]), cycles(KINDS[:2])
found = {k: 0 for k in KINDS}
for g in groups:
    found["call" if g in of_calls else "data" if g in with_data else "inline"] += 1
    path = way_round(g)
    failures.append(f"{' and '.join(g) if len(g) == 2 else ', '.join(g)} use "
                    f"{'each other' if len(g) == 2 else 'one another in a cycle'}: "
                    + "; ".join(said(a, b) for a, b in zip(path, path[1:])))
if not objs:
    failures.append(f"no objects of src/ under {build}: build first")

checked = {k: sum(1 for how in uses.values() for kk, _ in how if kk == k) for k in KINDS}
for f in failures:
    print("FAIL:", f)
print(f"{len(objs)} objects; uses between files checked: {checked['call']} calls, {checked['data']} "
      f"of data, {checked['inline']} of inline functions ({len(listed)} const objects listed in "
      f"tables, not uses); {len(groups)} cycles: {found['call']} of calls, {found['data']} through "
      f"data, {found['inline']} through inline functions; "
      f"{'sizes kept' if not failures else str(len(failures)) + ' problems'}")
sys.exit(1 if failures else 0)
