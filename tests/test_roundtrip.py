#!/usr/bin/env python3
"""test_roundtrip.py: what memtris writes for another command to read, read
back as the same problem, on random problems whose numbers sit at the edges
of their ranges (0, 1, 2^31, 2^32, 2^53-2, 2^53-1; offsets past 2^53):

  place's CSV        -> place reads the same rows, and places them the same
  place --format json -> the same rows and the CSV's offsets, exactly
  plan -f minimalloc -> place reads the buffers as plan -f json gives them
                        (or status 1, nothing written, for a size past 2^53-1)
  gen KIND           -> validate accepts it, schedule counts its nodes
  gen packing csv    -> place reads its rows

Usage: test_roundtrip.py MEMTRIS [CASES]. Fixed seeds: the same cases every run.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

M = sys.argv[1]
CASES = int(sys.argv[2]) if len(sys.argv) > 2 else 40
MAX = 2**53 - 1
EDGES = [0, 1, 2, 2**31 - 1, 2**31, 2**32, 2**52, MAX - 2, MAX - 1, MAX]
TMP = tempfile.mkdtemp(prefix="memtris-roundtrip.")
failures = []


def run(*args, ok=(0,)):
    p = subprocess.run([M, *args], capture_output=True)
    if p.returncode not in ok:
        raise AssertionError("memtris %s: status %d: %s" % (" ".join(args), p.returncode,
                                                           p.stderr.decode(errors="replace")[-600:]))
    return p


def value(rng, lo, hi):
    """An integer in [lo, hi], at an edge half of the time."""
    edges = [v for v in EDGES + [lo, hi, lo + 1, hi - 1] if lo <= v <= hi]
    return rng.choice(edges) if rng.random() < 0.5 else rng.randint(lo, hi)


def ident(rng, taken):
    chars = [chr(c) for c in range(0x20, 0x7F) if chr(c) not in ',"\\']
    while True:
        s = "".join(rng.choice(chars) for _ in range(rng.randint(1, 6)))
        if s not in taken and s.strip() == s and s:
            taken.add(s)
            return s


def read_csv(text):
    lines = text.decode().splitlines()
    head = lines[0].split(",")
    return [dict(zip(head, line.split(","))) for line in lines[1:]]


def problem(rng):
    """Rows (id, lower, upper, size, alignment or None) and the CSV text."""
    n = rng.randint(1, 8)
    aligned, inclusive, offsets = rng.random() < 0.3, rng.random() < 0.3, rng.random() < 0.3
    taken, rows = set(), []
    for _ in range(n):
        lo = value(rng, 0, MAX - 1)
        up = value(rng, lo + 1, MAX)  # an end, upper - 1, is at most 2^53-2
        size = value(rng, 0, MAX)
        al = 1 << rng.choice([0, 0, 3, 12, 30]) if aligned else None
        rows.append((ident(rng, taken), lo, up, size, al))
    head = ["id", "lower", "end" if inclusive else "upper", "size"]
    head += ["alignment"] if aligned else []
    head += ["offset"] if offsets else []
    out = [",".join(head)]
    for r in rows:
        f = [r[0], str(r[1]), str(r[2] - inclusive), str(r[3])]
        f += [str(r[4])] if aligned else []
        f += [str(value(rng, 0, 2**63 - 1))] if offsets else []
        out.append(",".join(f))
    return rows, "\n".join(out) + "\n"


def check_place(rng, case):
    rows, text = problem(rng)
    src = os.path.join(TMP, "p%d.csv" % case)
    with open(src, "w") as f:
        f.write(text)
    placer = rng.choice(["first-fit", "best-fit", "coloring", "best"])
    first = run("place", src, "--placer", placer).stdout
    got = read_csv(first)
    assert len(got) == len(rows), (len(got), len(rows))
    for r, g in zip(rows, got):
        want = [r[0], str(r[1]), str(r[2]), str(r[3])] + ([str(r[4])] if r[4] else [])
        have = [g["id"], g["lower"], g["upper"], g["size"]] + ([g["alignment"]] if r[4] else [])
        assert want == have, (want, have)
        assert 0 <= int(g["offset"]) < 2**63
    again = os.path.join(TMP, "q%d.csv" % case)
    with open(again, "wb") as f:
        f.write(first)
    second = run("place", again, "--placer", placer).stdout
    assert first == second, "place's CSV placed again differs"
    js = json.loads(run("place", src, "--placer", placer, "-f", "json").stdout)
    for r, g, b in zip(rows, got, js["buffers"]):
        assert (b["id"], b["lower"], b["upper"], b["size"], b["offset"]) == (
            r[0], r[1], r[2], r[3], int(g["offset"])), (b, r, g)


def graph(rng):
    """A graph of ALLOCs and FREEs in a chain, sizes at the edges."""
    n = rng.randint(1, 8)
    events = []
    for b in range(n):
        t0 = rng.randint(0, 20)
        events.append((t0, 1, b))
        if rng.random() < 0.8:
            events.append((rng.randint(t0 + 1, 21), 0, b))
    events.sort()
    nodes = []
    for k, (_, alloc, b) in enumerate(events):
        nd = {"Id": k, "Op": "ALLOC" if alloc else "FREE", "BufId": b + 10}
        if alloc:
            nd["Size"] = value(rng, 0, MAX)
            nd["Name"] = "n%d" % b
        nodes.append(nd)
    return {"Nodes": nodes, "Edges": [[k - 1, k] for k in range(1, len(nodes))]}


def span(size, align):
    return (size + align - 1) // align * align


def check_plan(rng, case):
    g = graph(rng)
    src = os.path.join(TMP, "g%d.json" % case)
    with open(src, "w") as f:
        json.dump(g, f)
    align = 1 << rng.choice([0, 0, 6, 10, 30])
    sizes = {nd["BufId"]: nd["Size"] for nd in g["Nodes"] if nd["Op"] == "ALLOC"}
    js = json.loads(run("plan", src, "--align", str(align), "-f", "json").stdout)
    too_big = any(span(s, align) > MAX for s in sizes.values())
    p = run("plan", src, "--align", str(align), "-f", "minimalloc", ok=(0, 1))
    if too_big:
        assert p.returncode == 1 and not p.stdout and b"past 2^53-1" in p.stderr, p
        return
    assert p.returncode == 0, p.stderr
    mm = os.path.join(TMP, "m%d.csv" % case)
    with open(mm, "wb") as f:
        f.write(p.stdout)
    steps = len(g["Nodes"])
    back = json.loads(run("place", mm, "-f", "json").stdout)
    assert len(back["buffers"]) == len(js["buffers"])
    for b, r in zip(js["buffers"], back["buffers"]):
        assert sizes[b["buf"]] == b["size"]
        free = b["free_step"] - 1 if b["free_step"] is not None else steps
        want = (str(b["buf"]), span(b["size"], align), b["alloc_step"] - 1, free)
        assert (r["id"], r["size"], r["lower"], r["upper"]) == want, (r, want)
    rows = read_csv(p.stdout)
    assert [int(r["offset"]) for r in rows] == [b["offset"] for b in js["buffers"]]
    assert back["arena"] == js["arena"], (back["arena"], js["arena"])


def kinds():
    text = run("gen", "--help").stdout.decode().splitlines()
    at = text.index("Kinds:")
    out = []
    for line in text[at + 1:]:
        if not line.strip():
            break
        word = line.split()[0]
        if word not in ("packing", "N") and "N >=" in line:
            out.append((word, int(line.rsplit("N >=", 1)[1])))
    return out


def check_gen(rng, case, kind_list):
    kind, least = kind_list[case % len(kind_list)]
    n, seed = rng.randint(least, least + 60), value(rng, 0, 2**64 - 1)
    out = os.path.join(TMP, "gen%d.json" % case)
    run("gen", kind, "--nodes", str(n), "--seed", str(seed), "-o", out)
    run("validate", out)
    sched = json.loads(run("schedule", out, "-f", "json").stdout)
    assert sched["nodes"] == n, (sched["nodes"], n)
    cap = value(rng, 1, MAX)
    csv = os.path.join(TMP, "pk%d.csv" % case)
    run("gen", "packing", "-n", str(rng.randint(1, 30)), "--seed", str(seed), "--capacity",
        str(cap), "--format", "csv", "-o", csv)
    with open(csv, "rb") as f:
        rows = read_csv(f.read())
    back = read_csv(run("place", csv, "--placer", "first-fit").stdout)
    assert [(r["id"], r["lower"], r["upper"], r["size"]) for r in rows] == \
        [(r["id"], r["lower"], r["upper"], r["size"]) for r in back]
    run("validate", out)


def main():
    kind_list = kinds()
    assert kind_list, "no kinds in gen --help"
    for case in range(CASES):
        for name, check in (("place", check_place), ("plan", check_plan)):
            rng = random.Random("%s-%d" % (name, case))
            try:
                check(rng, case)
            except AssertionError as e:
                failures.append("%s case %d: %s" % (name, case, e))
        rng = random.Random("gen-%d" % case)
        try:
            check_gen(rng, case, kind_list)
        except AssertionError as e:
            failures.append("gen case %d: %s" % (case, e))
    for f in failures[:10]:
        print("FAIL:", f)
    print("%d cases, %d failed" % (3 * CASES, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        subprocess.run(["rm", "-rf", TMP])
