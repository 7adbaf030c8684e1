#!/usr/bin/env python3
"""Issue 43's budget targets, measured: bench/budget_targets.py MEMTRIS [DIR] [--quick].

DIR (default /tmp/memtris-heldout) holds training steps exported with latencies measured
(fx2memtris.py MODEL --train --measure --latency measure --batch 8 --input-shape 3,64,64);
missing ones are exported first with /usr/bin/python3. Prints Markdown tables:
1. each step at 80/60/50% with recompute and with recompute,offload (best, --time-limit
   10): the plan's peak, extra time and its share of the step, the lower bound and the gap;
2. `gen train` steps: 200 nodes (seeds 1-5) at 60/70/80/90% by exact (proven or the gap, and
   the seconds), 1000 nodes by best (the gap), 1M nodes at 50% by best (the seconds);
3. the shipped training samples: the least budget a recompute-only plan reaches.
"""
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODELS = ["resnet18", "mobilenet_v3_small", "squeezenet1_0", "shufflenet_v2_x1_0", "efficientnet_b0"]


def export(d, m):
    out = os.path.join(d, m + ".json")
    if not os.path.exists(out):
        subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tools", "fx2memtris.py"), m, "--train",
                        "--measure", "--latency", "measure", "--batch", "8", "--input-shape", "3,64,64",
                        "-o", out], check=True)
    return out


def step_ms(path):
    with open(path) as f:
        g = json.load(f)
    return sum(float(n.get("Latency", 0) or 0) for n in g["Nodes"])


def budget(mt, path, *args):
    t = time.monotonic()
    r = subprocess.run([mt, "budget", path, "-f", "json", *args], capture_output=True, text=True)
    secs = time.monotonic() - t
    try:
        d = json.loads(r.stdout)
    except ValueError:
        d = {"feasible": False, "why": (r.stderr or r.stdout).strip()[:120]}
    d["_secs"] = secs
    return d


def mib(b):
    return "%.2f" % (b / 1048576.0)


def gap(d):
    lb, x = d.get("lower_bound_ms") or 0.0, d.get("extra_ms") or 0.0
    if d.get("proven_optimal"):
        return "proven"
    if x <= 0:
        return "0"
    return "%.1f%%" % (100.0 * (x - lb) / x)


def row_plan(d, step):
    if not d.get("feasible"):
        return "no plan (%s)" % (d.get("why") or "").replace("|", "/")[:90]
    x = d.get("extra_ms") or 0.0
    return "%s MiB, +%.3f ms (%.1f%% of the step), bound %.3f ms, gap %s" % (
        mib(d["peak"]), x, 100.0 * x / step if step else 0.0, d.get("lower_bound_ms") or 0.0, gap(d))


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    mt = os.path.abspath(sys.argv[1])
    d = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith("--") else "/tmp/memtris-heldout"
    quick = "--quick" in sys.argv
    os.makedirs(d, exist_ok=True)
    print("## training steps (latencies measured), best --time-limit 10\n")
    print("| model | step ms | budget | recompute | recompute,offload |")
    print("|---|---:|---|---|---|")
    for m in MODELS[:2] if quick else MODELS:
        p = export(d, m)
        st = step_ms(p)
        for pct in (80, 60, 50):
            a = budget(mt, p, "--budget", "%d%%" % pct, "--time-limit", "10")
            b = budget(mt, p, "--budget", "%d%%" % pct, "--allow", "recompute,offload", "--time-limit", "10")
            print("| %s | %.1f | %d%% | %s | %s |" % (m, st, pct, row_plan(a, st), row_plan(b, st)), flush=True)
    print("\n## gen train\n")
    print("| graph | budget | solver | answer | seconds |")
    print("|---|---|---|---|---:|")
    tmp = os.path.join(d, "gen")
    os.makedirs(tmp, exist_ok=True)
    for n, seeds, pcts, solver in ((200, range(1, 6), (60, 70, 80, 90), "exact"),
                                   (1000, range(1, 4), (60, 70, 80, 90), "best"),
                                   (1000000, (1,), (50,), "best")):
        if quick and n > 1000:
            continue
        for s in seeds:
            g = os.path.join(tmp, "train%d-%d.json" % (n, s))
            if not os.path.exists(g):
                subprocess.run([mt, "gen", "train", "-n", str(n), "--seed", str(s), "-o", g], check=True)
            st = step_ms(g)
            for pct in pcts:
                r = budget(mt, g, "--budget", "%d%%" % pct, "--solver", solver, "--time-limit", "10")
                print("| train %d seed %d | %d%% | %s | %s | %.2f |" % (n, s, pct, solver, row_plan(r, st), r["_secs"]),
                      flush=True)
    print("\n## shipped samples: recompute only\n")
    print("| sample | budget | answer |")
    print("|---|---|---|")
    for smp in ("resnet18_train", "transformer_block_train"):
        p = os.path.join(ROOT, "samples", smp + ".json")
        for pct in (70, 60, 50):
            r = budget(mt, p, "--budget", "%d%%" % pct, "--time-limit", "10")
            print("| %s | %d%% | %s |" % (smp, pct, row_plan(r, 1.0)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
