#!/usr/bin/python3
"""test_runplan_rng.py: a budget plan that runs a dropout again, from the
generator state its first run saved (memtris's budgets keep it, as
torch.utils.checkpoint(preserve_rng_state=True) does), runs in PyTorch bit
for bit equal to the plain step. The MLP "drop" of runplan_nets.py (its
Dropout a bernoulli_ on a wide activation) is exported with SGD; memtris
budget's exact search proves, by recompute alone at 70%, a plan that reruns
the dropout (rng_states 1, 5072 bytes); tools/runplan.py
runs it: the results bit for bit the plain step's, the live storages' peak
(the state held on the device from the first run to the last rerun) within
2% of the plan's and within its budget. Needs Debian's python3-torch (77
without it, saying so). Usage: test_runplan_rng.py MEMTRIS SRCDIR"""
import json
import os
import re
import subprocess
import sys
import tempfile

exe, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from pycheck import check, finish, require  # noqa: E402

torch = require("torch", "python3-torch")
sys.path.insert(0, os.path.join(src, "tools"))
import fxtrain  # noqa: E402
import graphkit  # noqa: E402
import runplan  # noqa: E402

SPEC, SHAPE, OPT = "runplan_nets:drop", [512, 64], "sgd"
tmp = tempfile.mkdtemp(prefix="memtris-runplan-rng.")
os.chdir(here)          # runplan_nets is importable as runplan.py imports it (sys.path ".")

torch.manual_seed(0)
import fx2memtris  # noqa: E402
graph, _, _ = fxtrain.export_train(fx2memtris.load_model(SPEC), SHAPE, torch.float32, graphkit, OPT, "sum",
                                   workspace=True)
gpath = os.path.join(tmp, "drop.json")
with open(gpath, "w") as f:
    json.dump(graph, f)
drops = [nd["Id"] for nd in graph["Nodes"] if nd["Op"] not in ("ALLOC", "FREE")
         and re.search("rand|dropout|bernoulli|multinomial", nd["Op"], re.I) and "backward" not in nd["Op"]]
check(len(drops) == 1, f"the exported MLP has one random op, its dropout's bernoulli_: {drops}")

# 70% by recompute alone: exact's search ends (a few seconds; the limit is its states').
r = subprocess.run([exe, "budget", gpath, "-b", "70%", "--solver", "exact", "--time-limit", "600", "-f", "json"],
                   capture_output=True, text=True, timeout=900)
plan = json.loads(r.stdout) if r.stdout else {}
check(r.returncode == 0 and plan.get("feasible") and plan.get("proven_optimal"),
      f"memtris proves a recompute plan at 70%: {r.stderr[-300:]}")
if plan.get("feasible"):
    runs = [x for op, x in plan["events"] if op == "run" and x in drops]
    check(len(runs) >= 2 and plan["rng_states"] == 1 and plan["rng_state_bytes"] == 5072,
          f"the plan runs the dropout again, from its state: {len(runs)} runs, {plan['rng_states']} states")
    tr = runplan.Traced(SPEC, SHAPE, OPT, "sum", 0, repeats=1)
    check(runplan.check_graph(tr.graph, graph, gpath) is None, "the exported graph binds to the trace")
    tr.bind(graph)
    try:
        events, predicted = runplan.budget_plan(tr, plan, "plan.json")
        res = runplan.run_plan(tr, events, predicted, dict(plan))
    except runplan.RunError as e:
        check(False, f"the plan runs: {e}")
    else:
        check(res["bit_for_bit"] and res["tensors_compared"] > 2,
              f"bit for bit the plain step's, {res['tensors_compared']} tensors")
        check(abs(res["live_peak"] - res["predicted_peak"]) <= 0.02 * res["predicted_peak"],
              f"live storages peak {res['live_peak']} within 2% of the plan's {res['predicted_peak']}")
        check(res["parts"]["live"] is None, f"no step parts from the plan by more than 1%: {res['parts']}")
        check(res["live_peak"] <= plan["budget"], f"live peak {res['live_peak']} within the budget {plan['budget']}")
finish()
