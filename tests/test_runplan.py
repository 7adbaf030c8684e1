#!/usr/bin/python3
"""test_runplan.py: tools/runplan.py runs memtris's plans on the real model in
PyTorch. On the two small models of runplan_nets.py with SGD, momentum and
Adam (their graphs exported with --measure: each op's workspace in the
graph), every policy's order and the budget plans at 60% and 80% (recompute,
and recompute with offload) that memtris finds run, bit for bit equal to the
plain step, with the live storages' peak within 2% of the prediction and the
allocator's within 5% of it; a budget plan's
live peak at most its budget, the allocator's at most the budget + 5%; no
step parts from the prediction by more than 1%. Refused, each with one line
and status 1: a plan with a read that is not present (at its event), a graph
of another model, a graph without Trace keys, --device cuda where torch has
no CUDA (where it has, a plan runs there); usage errors are status 2. The
replay files open in 'memtris view --replay' (an order's over its curve, a
budget plan's in the budget view) and one of another graph is refused.
Needs Debian's python3-torch (77 without it, saying so) and tmux for the
view (the README's test command installs both). Usage: test_runplan.py
MEMTRIS SRCDIR"""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

exe, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from pycheck import check, finish, require  # noqa: E402

torch = require("torch", "python3-torch")
sys.path.insert(0, os.path.join(src, "tools"))
import fxtrain  # noqa: E402
import graphkit  # noqa: E402
import runplan  # noqa: E402

MODELS = (("runplan_nets:mlp", [256, 16]), ("runplan_nets:cnn", [16, 3, 8, 8]))
OPTIMIZERS = ("sgd", "momentum", "adam")
tmp = tempfile.mkdtemp(prefix="memtris-runplan.")
env = dict(os.environ, PYTHONPATH=here)
RUNPLAN = os.path.join(src, "tools", "runplan.py")


def memtris(*args, timeout=120):
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=timeout)


def policies():
    r = memtris("schedule", "--help")
    lines = r.stdout.split("Policies", 1)[1].splitlines()[1:]
    return [ln.split()[0] for ln in lines if ln.startswith("  ") and ln[2:3].isalpha()]


def export(spec, shape, optimizer):
    """The graph fx2memtris.py --train --measure writes (workspaces in it)."""
    torch.manual_seed(0)
    import fx2memtris
    model = fx2memtris.load_model(spec)
    graph, _, _ = fxtrain.export_train(model, shape, torch.float32, graphkit, optimizer, "sum", workspace=True)
    return graph


def within(res, what, budget=None):
    check(abs(res["live_peak"] - res["predicted_peak"]) <= 0.02 * res["predicted_peak"],
          f"{what}: live storages peak {res['live_peak']} within 2% of the predicted {res['predicted_peak']}")
    check(abs(res["measured_peak"] - res["predicted_peak"]) <= 0.05 * res["predicted_peak"],
          f"{what}: the allocator's peak {res['measured_peak']} within 5% of the predicted {res['predicted_peak']}")
    check(res["parts"]["live"] is None and res["parts"]["allocator"] is None,
          f"{what}: no step parts from the prediction by more than 1%: {res['parts']}")
    check(res["bit_for_bit"] and res["tensors_compared"] > 2, f"{what}: bit for bit, {res['tensors_compared']} tensors")
    if budget is not None:
        check(res["live_peak"] <= budget, f"{what}: live storages peak {res['live_peak']} within the budget {budget}")
        check(res["measured_peak"] <= 1.05 * budget,
              f"{what}: the allocator's peak {res['measured_peak']} within the budget {budget} + 5%")


# ------------------------------------------------------------ every plan runs
pols = policies()
check({"fifo", "priority", "exact", "given"} <= set(pols), f"the policies read from schedule --help: {pols}")
saved = {}
os.chdir(here)          # runplan_nets is importable as runplan.py imports it (sys.path ".")
for spec, shape in MODELS:
    for opt in OPTIMIZERS:
        name = f"{spec.split(':')[1]}-{opt}"
        g = export(spec, shape, opt)
        gpath = os.path.join(tmp, f"{name}.json")
        with open(gpath, "w") as f:
            json.dump(g, f)
        check(any("Workspace" in nd for nd in g["Nodes"]), f"{name}: --measure put workspaces in the graph")
        tr = runplan.Traced(spec, shape, opt, "sum", 0, repeats=1)
        check(runplan.check_graph(tr.graph, g, gpath) is None, f"{name}: the exported graph binds to the trace")
        tr.bind(g)
        for pol in pols:
            r = memtris("schedule", gpath, "-p", pol, "-f", "json", "--time-limit", "1")
            check(r.returncode == 0, f"{name}: schedule -p {pol}: {r.stderr.strip()[:200]}")
            if r.returncode:
                continue
            sched = json.loads(r.stdout)
            try:
                events, predicted = runplan.order_plan(tr, sched, "s.json")
                res = runplan.run_plan(tr, events, predicted)
            except runplan.RunError as e:
                check(False, f"{name}: the order of {pol} runs: {e}")
                continue
            within(res, f"{name}, {pol}'s order")
            saved.setdefault(("order", spec), (gpath, sched, shape, opt))
        found = {}
        for pct in (60, 80):
            for allow in ("recompute", "recompute,offload"):
                r = memtris("budget", gpath, "-b", f"{pct}%", "--allow", allow, "-f", "json", "--time-limit", "2")
                plan = json.loads(r.stdout) if r.stdout else {}
                check(r.returncode in (0, 1) and "feasible" in plan, f"{name}: budget {pct}% {allow}: {r.stderr[:200]}")
                if not plan.get("feasible"):
                    continue
                found[allow] = found.get(allow, 0) + 1
                what = f"{name}, budget {pct}% ({allow})"
                try:
                    events, predicted = runplan.budget_plan(tr, plan, "p.json")
                    bp = dict(plan)
                    res = runplan.run_plan(tr, events, predicted, bp)
                except runplan.RunError as e:
                    check(False, f"{what} runs: {e}")
                    continue
                within(res, what, plan["budget"])
                if plan.get("offloaded_bytes"):
                    saved.setdefault(("offload", spec), (gpath, plan, shape, opt))
                if plan.get("reruns"):
                    saved.setdefault(("rerun", spec), (gpath, plan, shape, opt))
        check(found.get("recompute,offload", 0) >= 1,
              f"{name}: memtris finds a plan with offload at 60% or 80% to run: {found}")
        if spec.endswith("mlp") or opt != "adam":
            check(found.get("recompute", 0) >= 1, f"{name}: memtris finds a plan of reruns at 80% to run: {found}")
check(("rerun", "runplan_nets:mlp") in saved and ("offload", "runplan_nets:cnn") in saved,
      f"plans with reruns and with offload ran on both models: {sorted(saved)}")

# Below the weights: on a step whose weights, gradients and Adam's state outweigh its
# activations, 60% of the budget-free peak is under every plan of reruns alone (the Input makes
# the weights and state together); with offload the plan leaves some on the host ("host"
# events: the Input leaves them there, their first use fetches them) and runs bit for bit,
# within its budget, nothing on the device at the start.
g = export("runplan_nets:wide", [4, 64], "adam")
gpath = os.path.join(tmp, "wide-adam.json")
with open(gpath, "w") as f:
    json.dump(g, f)
r = memtris("budget", gpath, "-b", "60%", "-f", "json")
alone = json.loads(r.stdout) if r.stdout else {}
r = memtris("budget", gpath, "-b", "60%", "--allow", "recompute,offload", "-f", "json", "--time-limit", "2")
plan = json.loads(r.stdout) if r.stdout else {}
hosted = [e[1] for e in plan.get("events", []) if e[0] == "host"]
check(alone.get("feasible") is False and alone.get("proven_infeasible") and plan.get("feasible") and
      plan["peak"] < alone["least_budget_bound"] and hosted and plan["initial"] == 0,
      f"wide-adam at 60%: no plan of reruns alone, one with offload below its bound, weights on the "
      f"host: {alone.get('why')} {plan.get('peak')} {hosted}")
if plan.get("feasible"):
    tr = runplan.Traced("runplan_nets:wide", [4, 64], "adam", "sum", 0, repeats=1)
    tr.bind(g)
    try:
        events, predicted = runplan.budget_plan(tr, plan, "p.json")
        res = runplan.run_plan(tr, events, predicted, dict(plan))
        within(res, "wide-adam, budget 60% (recompute,offload)", plan["budget"])
        check(res["start"]["live"] == 0 and res["start"]["measured"] == 0,
              f"wide-adam: what starts on the host is not on the device at the start: {res['start']}")
    except runplan.RunError as e:
        check(False, f"wide-adam, budget 60% with weights on the host runs: {e}")


# ------------------------------------------------------------ the command line
class Result:
    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def runplan_cli(spec, shape, opt, *args, process=False):
    """runplan.py's command line: in this process (its main, as the script runs it), or with
    process=True as a program of its own."""
    argv = [spec, "--batch", str(shape[0]), "--input-shape", ",".join(map(str, shape[1:])), "--optimizer", opt,
            "--repeats", "1", *args]
    if process:
        return subprocess.run(["/usr/bin/python3", RUNPLAN, *argv], capture_output=True, text=True, env=env,
                              cwd=here, timeout=300)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = graphkit.run_tool("runplan", lambda: runplan.main(argv))
        except SystemExit as e:
            rc = e.code
    return Result(rc, out.getvalue(), err.getvalue())


def one_line(r, status, words, what):
    check(r.returncode == status and words in r.stderr and len(r.stderr.strip().splitlines()) == 1
          and "Traceback" not in r.stderr,
          f"{what}: status {r.returncode}, one line with '{words}': {r.stderr.strip()[-300:]}")


gpath, sched, shape, opt = saved[("order", "runplan_nets:cnn")]
spath, rpath = os.path.join(tmp, "order.json"), os.path.join(tmp, "order.replay.json")
with open(spath, "w") as f:
    json.dump(memtris_sched := json.loads(memtris("schedule", gpath, "-p", "priority", "-f", "json").stdout), f)
r = runplan_cli("runplan_nets:cnn", shape, opt, "--graph", gpath, "--order", spath, "-o", rpath, process=True)
check(r.returncode == 0 and "results: bit for bit" in r.stdout and "peak: predicted" in r.stdout
      and "live storages" in r.stdout and "time: the plan" in r.stdout,
      f"runplan.py --order prints peaks, time and results: {r.returncode} {r.stdout[-600:]} {r.stderr[-300:]}")
rep = json.load(open(rpath)) if os.path.exists(rpath) else {}
check(rep.get("backend") == "torch-cpu" and rep.get("policy") == "priority" and rep.get("total_steps") ==
      len(memtris_sched["order"]) and [s["node"] for s in rep.get("steps", [])] == memtris_sched["order"]
      and [s["predicted"] for s in rep.get("steps", [])] == memtris_sched["memory"],
      "-o: the saved replay: torch-cpu, the schedule's policy, its steps and predictions")

gb, plan, shape_b, opt_b = saved[("offload", "runplan_nets:cnn")]
ppath, bpath = os.path.join(tmp, "plan.json"), os.path.join(tmp, "plan.replay.json")
with open(ppath, "w") as f:
    json.dump(plan, f)
r = runplan_cli("runplan_nets:cnn", shape_b, opt_b, "--graph", gb, "--budget-plan", ppath, "-o", bpath)
check(r.returncode == 0 and "budget:" in r.stdout and "NumPy copies outside torch's allocator" in r.stdout
      and "the reruns took" in r.stdout,
      f"runplan.py --budget-plan: the budget, the offload's words, the extra time: {r.stdout[-700:]} {r.stderr[-300:]}")
brep = json.load(open(bpath)) if os.path.exists(bpath) else {}
check(brep.get("budget_plan", {}).get("events") == plan["events"] and len(brep.get("steps", [])) ==
      len(plan["events"]) and "start" in brep, "-o: a budget plan's replay carries its events, one step each")

# A weight the plan leaves on the host at the end (offloaded after its last use, never fetched,
# as memtris's plans may): its value there is the step's.
g = json.load(open(gb))
weights = {nd["BufId"] for nd in g["Nodes"] if nd.get("Category") == "weight"}
last_free = max((k for k, e in enumerate(plan["events"]) if e[0] == "free" and e[1] in weights), default=None)
check(last_free is not None, "the budget plan frees a weight")
if last_free is not None:
    host = dict(plan, events=[list(e) for e in plan["events"]])
    host["events"][last_free][0] = "offload"
    with open(ppath, "w") as f:
        json.dump(host, f)
    r = runplan_cli("runplan_nets:cnn", shape_b, opt_b, "--graph", gb, "--budget-plan", ppath)
    check(r.returncode == 0 and "results: bit for bit" in r.stdout,
          f"a weight left on the host at the end: compared as copied there: {r.stderr.strip()[-300:]}")

# A plan that reads what is not present: refused at its event. In the budget
# plan, the buffer that a run makes freed at once, before its first reader.
g = json.load(open(gb))
makes = {}                       # compute Id -> the BufIds it makes (the first compute its ALLOC precedes)
first = {}
for u, v in g["Edges"]:
    a = next((nd for nd in g["Nodes"] if nd["Id"] == u), None) if u not in first else None
    first.setdefault(u, []).append(v)
alloc_buf = {nd["Id"]: nd["BufId"] for nd in g["Nodes"] if nd["Op"] == "ALLOC"}
compute = {nd["Id"]: nd for nd in g["Nodes"] if nd["Op"] not in ("ALLOC", "FREE")}
for a_id, b in alloc_buf.items():
    succ = [v for v in first.get(a_id, []) if v in compute]
    if succ:
        makes.setdefault(min(succ), []).append(b)
ev = list(plan["events"])
k, victim = next((k, b) for k, e in enumerate(ev) if e[0] == "run" for b in makes.get(e[1], [])
                 if compute[e[1]]["Op"] not in ("Input",) and
                 any(e2[0] == "run" and b in compute[e2[1]].get("Inputs", []) and e2[1] != e[1] for e2 in ev[k + 1:]))
reader = next(j for j in range(k + 1, len(ev)) if ev[j][0] == "run" and victim in compute[ev[j][1]].get("Inputs", [])
              and ev[j][1] != ev[k][1])
bad = dict(plan)
bad["events"] = ev[:k + 1] + [["free", victim]] + ev[k + 1:]
bad["memory"] = plan["memory"][:k + 1] + [plan["memory"][k]] + plan["memory"][k + 1:]
with open(ppath, "w") as f:
    json.dump(bad, f)
r = runplan_cli("runplan_nets:cnn", shape_b, opt_b, "--graph", gb, "--budget-plan", ppath)
one_line(r, 1, f"event {reader + 2} (run Id {ev[reader][1]})", "a plan whose run reads a buffer freed before it")
check(f"it reads BufId {victim} " in r.stderr and f"not present (dropped at event {k + 2})" in r.stderr,
      f"... says which buffer and where it went: {r.stderr.strip()}")
# In an order: a FREE moved to just after the op that makes its buffer.
order = list(memtris_sched["order"])
gn = {nd["Id"]: nd for nd in json.load(open(gpath))["Nodes"]}
fre = next(i for i in order if gn[i]["Op"] == "FREE" and gn[i]["BufId"] not in
           {nd.get("Workspace") for nd in gn.values()} and
           sum(1 for j in order if gn[j]["Op"] not in ("ALLOC", "FREE") and gn[i]["BufId"] in gn[j].get("Inputs", [])) > 1)
users = [p for p, j in enumerate(order) if gn[j]["Op"] not in ("ALLOC", "FREE") and gn[fre]["BufId"] in gn[j].get("Inputs", [])]
order.remove(fre)
order.insert(users[0] + 1, fre)
sched_bad = dict(memtris_sched, order=order)
with open(spath, "w") as f:
    json.dump(sched_bad, f)
r = runplan_cli("runplan_nets:cnn", shape, opt, "--graph", gpath, "--order", spath)
one_line(r, 1, f"event {users[1] + 2} (run Id {order[users[1] + 1]})", "an order that frees a buffer before a reader")
check("not present" in r.stderr, f"... says why: {r.stderr.strip()}")

# Another model's graph, a graph without its keys, a missing file, usage errors.
other = saved[("order", "runplan_nets:mlp")][0]
with open(spath, "w") as f:
    json.dump(memtris_sched, f)
r = runplan_cli("runplan_nets:cnn", shape, opt, "--graph", other, "--order", spath)
one_line(r, 1, "is not in this model's trace", "the graph of another model")
stripped = json.load(open(gpath))
for nd in stripped["Nodes"]:
    nd.pop("Trace", None)
nokey = os.path.join(tmp, "nokey.json")
with open(nokey, "w") as f:
    json.dump(stripped, f)
r = runplan_cli("runplan_nets:cnn", shape, opt, "--graph", nokey, "--order", spath)
one_line(r, 1, "has no \"Trace\" key", "a graph without Trace keys")
r = runplan_cli("runplan_nets:cnn", shape, opt, "--graph", os.path.join(tmp, "missing.json"), "--order", spath)
one_line(r, 1, "No such file", "a missing graph")
for args, words in ((["--graph", gpath], "one of the arguments --order --budget-plan is required"),
                    (["--graph", gpath, "--order", spath, "--budget-plan", ppath], "not allowed with"),
                    (["--graph", gpath, "--order", spath, "--threads", "0"], "--threads"),
                    (["--graph", gpath, "--order", spath, "-o", ""], "-o wants a file name")):
    one_line(runplan_cli("runplan_nets:cnn", shape, opt, *args), 2, words, f"usage: {args[-2:]}")

# CUDA: where torch has none (Debian's python3-torch is built without it),
# said in one line; where it has, the same order runs there.
if torch.cuda.is_available():
    r = runplan_cli("runplan_nets:cnn", shape, opt, "--graph", gpath, "--order", spath, "--device", "cuda")
    check(r.returncode == 0 and "results: bit for bit" in r.stdout, f"--device cuda runs: {r.stderr[-300:]}")
else:
    print("SKIP (part): needs torch with CUDA and a device: --device cuda is checked to refuse "
          "(scripts/gpu-check runs it on a GPU)")
    r = runplan_cli("runplan_nets:cnn", shape, opt, "--graph", gpath, "--order", spath, "--device", "cuda")
    one_line(r, 1, "--device cuda: torch sees no CUDA device", "--device cuda without CUDA")


# ------------------------------------------------------------ the overlay in the TUI
def view(graph, replay, keys=(), size=(100, 32)):
    """The screen of memtris view GRAPH --replay REPLAY (None if tmux is missing), its status and stderr."""
    tmux = shutil.which("tmux")
    check(tmux is not None, "tmux is installed (the README's test command installs it)")
    if not tmux:
        return None, None
    view.calls = getattr(view, "calls", 0) + 1
    sock = os.path.join(tmp, f"tmux{view.calls}.sock")     # a server each: the last may be going
    out = os.path.join(tmp, "view.status")
    cmd = f"'{exe}' view '{graph}' --replay '{replay}' 2>'{out}.err'; echo $? > '{out}'; sleep 60"
    tm = ["tmux", "-S", sock, "-f", "/dev/null"]          # no ~/.tmux.conf
    tenv = {k: v for k, v in os.environ.items() if k != "TMUX"}
    subprocess.run(tm + ["new-session", "-d", "-x", str(size[0]), "-y", str(size[1]), "env",
                    "TERM=xterm-256color",
                    "LANG=C.UTF-8", "sh", "-c", cmd], check=True, env=tenv)
    screen = ""
    for _ in range(100):
        time.sleep(0.1)
        screen = subprocess.run(tm + ["capture-pane", "-p"], capture_output=True, text=True).stdout
        if "measured" in screen or os.path.exists(out):
            break
    for k in keys:
        subprocess.run(tm + ["send-keys", k])
        time.sleep(0.3)
    if keys:
        screen = subprocess.run(tm + ["capture-pane", "-p"], capture_output=True, text=True).stdout
    subprocess.run(tm + ["send-keys", "q"])
    for _ in range(50):
        if os.path.exists(out):
            break
        time.sleep(0.1)
    status = open(out).read().strip() if os.path.exists(out) else None
    err = open(out + ".err").read() if os.path.exists(out + ".err") else ""
    subprocess.run(tm + ["kill-server"], capture_output=True)
    for p in (out, out + ".err"):
        if os.path.exists(p):
            os.remove(p)
    return screen, (status, err)


screen, (status, err) = view(gpath, rpath, ["P"])
if screen is not None:
    check(status == "0" and "measured (torch-cpu)" in screen and "priority" in screen,
          f"view --replay: the order's measured curve over priority's: {status} {err} {screen}")
screen, (status, err) = view(gb, bpath, ["P"], (200, 60))
if screen is not None:
    check(status == "0" and "measured (torch-cpu)" in screen and f"budget {plan['budget']}" not in screen and
          " budget " in screen.splitlines()[0] and "Host: bytes offloaded" in screen,
          f"view --replay of a budget plan: the budget view, its host lane, the measured curve: {status} {err} "
          f"{screen}")
screen, (status, err) = view(other, bpath)
if screen is not None:
    check(status == "1" and "does not belong to" in err, f"a budget replay of another graph: {status} {err}")

shutil.rmtree(tmp)
finish()
