#!/usr/bin/python3
"""runplan.py: issue 41's table. Every policy's order of three training steps and their budget
plans at 60, 70, 80 and 90% (recompute; recompute and offload), run on the real model in PyTorch
by tools/runplan.py (in this process, one trace a model), each against memtris's prediction.

Usage: /usr/bin/python3 bench/runplan.py MEMTRIS [MODEL...]   (models: resnet18 mobilenet_v2
transformer; default all). Prints a Markdown table: model, plan, predicted peak, the live
storages' and the allocator's measured peaks and their ratios to it, where they first part from
it, the times (the plan's, the given order's through the same executor, memtris's predicted
extra), and whether the results were bit for bit the plain step's. Graphs are exported here as
fx2memtris.py --train --measure --latency measure makes them (this machine's workspaces, each op's
median time of 5 runs as its Latency); CPU, one thread."""
import json
import os
import subprocess
import sys
import tempfile
import time

src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(src, "tools"))
import torch  # noqa: E402
import fx2memtris  # noqa: E402
import fxtrain  # noqa: E402
import graphkit  # noqa: E402
import runplan  # noqa: E402

MODELS = {
    "resnet18": ("resnet18", [8, 3, 64, 64], "sgd"),
    "mobilenet_v2": ("mobilenet_v2", [8, 3, 64, 64], "sgd"),
    "transformer": ("models:transformer_block", [8, 64, 256], "adam"),
}


def mib(b):
    return f"{b / 2**20:.2f}"


def main():
    exe = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or list(MODELS)
    tmp = tempfile.mkdtemp(prefix="bench-runplan.")
    os.chdir(os.path.join(src, "tools"))
    sys.path.insert(0, ".")
    pols = [ln.split()[0] for ln in subprocess.run([exe, "schedule", "--help"], capture_output=True,
                                                   text=True).stdout.split("Policies", 1)[1].splitlines()[1:]
            if ln.startswith("  ") and ln[2:3].isalpha()]
    print("| model | plan | predicted MiB | live MiB | ratio | allocator MiB | ratio | parts first | "
          "plan s | given s | reruns' ms | predicted extra ms | bit for bit |")
    print("|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|")
    for name in names:
        spec, shape, opt = MODELS[name]
        torch.manual_seed(0)
        t0 = time.time()
        graph, _, _ = fxtrain.export_train(fx2memtris.load_model(spec), shape, torch.float32, graphkit, opt, "sum",
                                           timing=(5, 1), workspace=True)
        gpath = os.path.join(tmp, f"{name}.json")
        with open(gpath, "w") as f:
            json.dump(graph, f)
        tr = runplan.Traced(spec, shape, opt, "sum", 0, repeats=3)
        why = runplan.check_graph(tr.graph, graph, gpath)
        assert why is None, why
        tr.bind(graph)
        print(f"<!-- {name}: exported and traced in {time.time() - t0:.1f} s -->", flush=True)
        plans = [("order", p, ["schedule", gpath, "-p", p, "-f", "json"]) for p in pols]
        for pct in (60, 70, 80, 90):
            for allow in ("recompute", "recompute,offload"):
                plans.append(("budget", f"budget {pct}% {allow}",
                              ["budget", gpath, "-b", f"{pct}%", "--allow", allow, "-f", "json", "--time-limit", "10"]))
        for kind, label, cmd in plans:
            r = subprocess.run([exe, *cmd], capture_output=True, text=True)
            try:
                p = json.loads(r.stdout)
            except ValueError:
                print(f"| {name} | {label} | memtris: {r.stderr.strip()[:120]} ||||||||||", flush=True)
                continue
            if kind == "budget" and not p.get("feasible"):
                print(f"| {name} | {label} | no plan found ({p.get('why', '')[:80]}) ||||||||||", flush=True)
                continue
            try:
                if kind == "order":
                    ev, pred = runplan.order_plan(tr, p, "order")
                    res = runplan.run_plan(tr, ev, pred)
                    extra = "-"
                else:
                    ev, pred = runplan.budget_plan(tr, p, "plan")
                    res = runplan.run_plan(tr, ev, pred, dict(p))
                    extra = f"{p['extra_ms']:g}"
            except runplan.RunError as e:
                print(f"| {name} | {label} | refused or differs: {str(e)[:150]} ||||||||||", flush=True)
                continue
            pp = res["predicted_peak"]
            parts = res["parts"]
            first = "; ".join(f"{k} at step {v['step']} ({runplan.describe(v, tr)}): {mib(v['predicted'])} "
                              f"predicted, {mib(v['measured'])} measured" for k, v in parts.items() if v) or "nowhere"
            print(f"| {name} | {label} | {mib(pp)} | {mib(res['live_peak'])} | {res['live_peak'] / pp:.4f} | "
                  f"{mib(res['measured_peak'])} | {res['measured_peak'] / pp:.4f} | {first} | "
                  f"{res['seconds']:.3f} | {res['given_seconds']:.3f} | "
                  f"{res['rerun_ms']:.1f} | {extra} | "
                  f"{'yes' if res['bit_for_bit'] else 'no'} |", flush=True)


if __name__ == "__main__":
    main()
