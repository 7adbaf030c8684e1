#!/usr/bin/python3
"""train_peaks.py: bench for fx2memtris.py --train --measure (issue 27): for
each model, the export time, the measured peak of the real step (torch.profiler
on the CPU), the given-order peak (memtris schedule -p given), the
error, and what priority, best and exact (time limit 20 s) save over given.
Prints a markdown table. Usage (from the repository root):
  /usr/bin/python3 bench/train_peaks.py build/memtris"""
import json
import os
import subprocess
import sys
import time

exe = os.path.abspath(sys.argv[1])
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
tool = os.path.join(root, "tools", "fx2memtris.py")
CASES = [  # name, model, shape, batch, extra
    ("resnet18", "resnet18", "3,64,64", 8, []),
    ("resnet50", "resnet50", "3,64,64", 8, []),
    ("mobilenet_v2", "mobilenet_v2", "3,64,64", 8, []),
    ("squeezenet1_0", "squeezenet1_0", "3,64,64", 8, []),
    ("shufflenet_v2_x1_0", "shufflenet_v2_x1_0", "3,64,64", 8, []),
    ("efficientnet_b0", "efficientnet_b0", "3,64,64", 8, []),
    ("resnet18 adam", "resnet18", "3,64,64", 8, ["--optimizer", "adam"]),
    ("transformer_block b4 adam", "models:transformer_block", "64,256", 4, ["--optimizer", "adam"]),
    ("transformer_block b16 adam", "models:transformer_block", "64,256", 16, ["--optimizer", "adam"]),
]


def memtris(path, *args):
    return subprocess.run([exe, *args, path], capture_output=True, text=True)


def given(path, g):
    r = memtris(path, "schedule", "-p", "given", "--format", "json")
    if r.returncode:
        sys.exit(f"train_peaks.py: memtris schedule -p given failed on {path}: {r.stderr.strip()}")
    return json.loads(r.stdout)["peak"], ""


def peak(path, pol, *extra):
    r = memtris(path, "schedule", "-p", pol, "--format", "json", *extra)
    return json.loads(r.stdout)["peak"] if r.returncode == 0 else None


def exact(path):
    """exact's peak and whether it is proven within the limit."""
    r = memtris(path, "schedule", "-p", "exact", "--format", "json", "--time-limit", "20")
    if r.returncode:
        return None, ""
    d = json.loads(r.stdout)
    return d["peak"], " proven" if d["proven_optimal"] else " not proven"


def mib(b):
    return f"{b / 1048576:.2f}" if b is not None else "-"


def saving(b, g):
    return f"{mib(b)} ({100 * (b / g - 1):+.1f}%)" if b is not None else "-"


print("| model (batch, input) | nodes | export s | measured MiB | given MiB | given/measured | "
      "priority MiB | best MiB | exact MiB |")
print("|---|---|---|---|---|---|---|---|---|")
for name, model, shape, batch, extra in CASES:
    out = f"/tmp/train_peaks_{os.getpid()}.json"
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, tool, model, "--train", "--measure", "--batch", str(batch),
                        "--input-shape", shape, *extra, "-o", out], capture_output=True, text=True,
                       cwd=os.path.join(root, "tools"))
    secs = time.perf_counter() - t0
    if r.returncode:
        print(f"| {name} | export failed: {r.stderr.strip()[:100]} |")
        continue
    g = json.load(open(out))
    m = g["Measured"]["peak"]
    gp, mark = given(out, g)
    pr, be = peak(out, "priority"), peak(out, "best")
    ex, proof = exact(out)
    print(f"| {name} ({batch}, {shape}) | {len(g['Nodes'])} | {secs:.1f} | {mib(m)} | {mib(gp)}{mark} | "
          f"{100 * (gp / m - 1):+.1f}% | {saving(pr, gp)} | {saving(be, gp)} | {saving(ex, gp)}{proof} |", flush=True)
    os.unlink(out)
