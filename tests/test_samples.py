#!/usr/bin/env python3
"""test_samples.py: every committed sample works with every command; the
teaching samples say what samples/README.md claims (the greedy order is not
optimal, checked over all topological orders; fanout's FIFO and priority
differ a lot); the generated tables of samples/README.md are up to date.
Usage: test_samples.py MEMTRIS SRCDIR"""
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile

exe, src = sys.argv[1], sys.argv[2]
samples = os.path.join(src, "samples")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, finish  # noqa: E402


def run(*args, stdin=None):
    return subprocess.run([exe, *args], capture_output=True, text=True, input=stdin)


names = sorted(f for f in os.listdir(samples) if f.endswith(".json"))
check(len(names) >= 8, f"at least 8 samples, found {names}")
for f in names:
    path = os.path.join(samples, f)
    v = run("validate", path)
    check(v.returncode == 0 and "valid" in v.stdout, f"validate {f}: {v.stderr.strip()[:200]}")
    check("error" not in v.stderr, f"{f} has errors")
    if f != "seed-example.json":   # its Inputs name unknown buffers, as the seed wrote it
        check(v.stderr == "", f"{f} has warnings: {v.stderr.strip()[:200]}")
    for pol in ("fifo", "priority"):
        for fmt in ("text", "json", "csv"):
            r = run("schedule", path, "--policy", pol, "--format", fmt)
            check(r.returncode == 0 and r.stdout, f"schedule {f} {pol} {fmt}")
    for fmt in ("text", "json"):
        r = run("compare", path, "--format", fmt)
        check(r.returncode == 0 and r.stdout, f"compare {f} {fmt}")


def peak_of(g, order):
    size = {n["BufId"]: n["Size"] for n in g["Nodes"] if n["Op"] == "ALLOC"}
    by_id = {n["Id"]: n for n in g["Nodes"]}
    mem = peak = 0
    for i in order:
        n = by_id[i]
        mem += n["Size"] if n["Op"] == "ALLOC" else -size[n["BufId"]] if n["Op"] == "FREE" else 0
        peak = max(peak, mem)
    return peak


def topo_orders(g):
    ids = [n["Id"] for n in g["Nodes"]]
    preds = {i: {u for u, v in g["Edges"] if v == i} for i in ids}
    for perm in itertools.permutations(ids):
        pos = {v: k for k, v in enumerate(perm)}
        if all(pos[p] < pos[i] for i in ids for p in preds[i]):
            yield perm


MiB = 1 << 20
g = json.load(open(os.path.join(samples, "greedy-not-optimal.json")))
best = min(peak_of(g, o) for o in topo_orders(g))
got = json.loads(run("schedule", os.path.join(samples, "greedy-not-optimal.json"), "--format", "json").stdout)
check(best == 10 * MiB, f"the least peak over all orders is 10 MiB, got {best}")
check(got["peak"] == 11 * MiB, f"priority's peak is 11 MiB, got {got['peak']}")
check(got["order"] == [0, 1, 2, 3, 4, 5, 6], f"priority's order as in samples/README.md, got {got['order']}")
check(peak_of(g, [2, 3, 4, 0, 1, 5, 6]) == 10 * MiB, "the README's better order peaks at 10 MiB")
readme = open(os.path.join(samples, "README.md")).read()
check("| priority (greedy) | 0 acc.out, 1 acc, 2 tmp.out, 3 tmp, 4 free tmp, 5 output, 6 free acc | 11 MiB |"
      in readme and "| better (optimal) | 2 tmp.out, 3 tmp, 4 free tmp, 0 acc.out, 1 acc, 5 output, 6 free acc | 10 MiB |"
      in readme, "samples/README.md lists both orders and peaks")

res = {r["policy"]: r["peak"] for r in
       json.loads(run("compare", os.path.join(samples, "fanout.json"), "--format", "json").stdout)["results"]}
check(res["fifo"] > 5 * res["priority"], f"fanout: fifo's peak is over 5x priority's ({res})")

# The generated tables are what results_table.py makes now.
with tempfile.TemporaryDirectory() as tmp:
    copy = os.path.join(tmp, "samples")
    shutil.copytree(samples, copy)
    r = subprocess.run([sys.executable, os.path.join(src, "tools", "results_table.py"), exe,
                        os.path.join(copy, "README.md")], capture_output=True, text=True)
    check(r.returncode == 0, f"results_table.py runs: {r.stderr.strip()[:300]}")
    check(open(os.path.join(copy, "README.md")).read() == readme,
          "samples/README.md tables are up to date (run tools/results_table.py build/memtris)")

finish()
