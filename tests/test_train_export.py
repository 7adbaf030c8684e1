#!/usr/bin/python3
"""test_train_export.py: tools/fx2memtris.py --train (tools/fxtrain.py) on a
small MLP with BatchNorm: every ALLOC has a Category and every compute node a
Phase, in forward, backward, optimizer order; the gradients are exactly the
parameters' bytes; Ids are the execution order (ascending Id is topological,
each FREE right after the last node that touches its buffer); momentum and
Adam add their state; the graph validates; the given-order peak (memtris
schedule -p given) is within 10% of the real step's peak measured by torch.profiler
(--measure). Also --latency flops (an addmm by hand) and measure with
--train and on the make_fx forward, the forward fallback to make_fx where symbolic tracing fails,
--make-fx, the symbolic export's --execution-order, and --measure without
--train refused; what torch 1.13's schemas leave out (the batch norm's running
statistics changed in place, _unsafe_view a view), a Trace on every compute
node, and the workspaces --measure adds (tools/workspaces.py). Needs Debian's python3-torch;
without it the test says so and skips (exit 77). Usage: test_train_export.py
MEMTRIS SRCDIR"""
import json
import os
import subprocess
import sys

exe, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, finish, require  # noqa: E402

torch = require("torch", "python3-torch")
from torch import nn  # noqa: E402

sys.path.insert(0, os.path.join(src, "tools"))
import fx2memtris  # noqa: E402
import fxtrain  # noqa: E402
import graphkit  # noqa: E402

torch.manual_seed(0)


def mlp():
    return nn.Sequential(nn.Linear(64, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Linear(256, 10))


class Split(nn.Module):
    """symbolic_trace fails on it ("Proxy object cannot be iterated")."""
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 1)

    def forward(self, x):
        a, b = x.chunk(2, dim=1)
        return torch.cat([self.conv(torch.cat([a, b], 1)), a], 1)


class Tiny(nn.Module):
    """test_exporter.py's: conv, in-place relu, flatten, fc, *2."""
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.relu = nn.ReLU(inplace=True)
        self.fc = nn.Linear(128, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.relu(self.conv(x)), 1)) * 2


def memtris(g, *args):
    return subprocess.run([exe, *args, "-"], input=json.dumps(g), capture_output=True, text=True)


def given_peak(g):
    """memtris schedule -p given's peak: the graph's own (execution) order."""
    r = memtris(g, "schedule", "-p", "given", "--format", "json")
    check(r.returncode == 0, f"memtris schedule -p given runs: {r.stderr.strip()}")
    return (json.loads(r.stdout)["peak"] if r.returncode == 0 else -1), "memtris"


def check_order(g, what):
    ids = [n["Id"] for n in g["Nodes"]]
    check(ids == list(range(len(ids))), f"{what}: Ids 0..N-1 in order")
    check(all(u < v for u, v in g["Edges"]), f"{what}: every edge goes up in Id (ascending Id is topological)")
    preds = {}
    for u, v in g["Edges"]:
        preds.setdefault(v, []).append(u)
    ok = True
    for n in g["Nodes"]:
        if n["Op"] == "FREE":
            last = max(preds.get(n["Id"], [-1]))
            ok &= all(g["Nodes"][k]["Op"] == "FREE" for k in range(last + 1, n["Id"]))
    check(ok, f"{what}: each FREE right after the last node that touches its buffer")
    v = memtris(g, "validate")
    check(v.returncode == 0 and v.stderr == "", f"{what}: validates cleanly: {v.stderr[:300]}")


def categories(g):
    out = {}
    for n in g["Nodes"]:
        if n["Op"] == "ALLOC":
            out[n.get("Category")] = out.get(n.get("Category"), 0) + n["Size"]
    return out


model = mlp()
threads_before = torch.get_num_threads()
param_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
for opt in fxtrain.OPTIMIZERS:
    g = fx2memtris.export_train(model, [32, 64], torch.float32, opt, "cross-entropy", measure=True)
    what = f"mlp --train --optimizer {opt}"
    check_order(g, what)
    cats = categories(g)
    check(None not in cats, f"{what}: a Category on every ALLOC ({sorted(map(str, cats))})")
    want = {"input", "weight", "gradient", "activation", "output", "workspace"} | (
        {"optimizer"} if opt != "sgd" else set())
    check(set(cats) == want, f"{what}: categories {sorted(cats)}, want {sorted(want)}")
    check(cats["gradient"] == param_bytes, f"{what}: gradients {cats['gradient']} bytes = parameters {param_bytes}")
    state = {"sgd": 0, "momentum": 1, "adam": 2}[opt] * param_bytes
    check(cats.get("optimizer", 0) == state, f"{what}: optimizer state {cats.get('optimizer', 0)}, want {state}")
    check(cats["output"] == 4, f"{what}: the loss, a float32 scalar, is the output")
    compute = [n for n in g["Nodes"] if n["Op"] not in ("ALLOC", "FREE")]
    phases = [n.get("Phase") for n in compute]
    check(None not in phases, f"{what}: a Phase on every compute node")
    order = {"forward": 0, "backward": 1, "optimizer": 2}
    seq = [order.get(p, -1) for p in phases]
    check(seq == sorted(seq) and set(seq) == {0, 1, 2}, f"{what}: forward, then backward, then optimizer")
    check(all(n.get("Phase") is None for n in g["Nodes"] if n["Op"] in ("ALLOC", "FREE")),
          f"{what}: no Phase on ALLOC and FREE")
    grads = [n for n in g["Nodes"] if n.get("Category") == "gradient"]
    check(all(n["Id"] < next(c["Id"] for c in compute if c.get("Phase") == "optimizer") for n in grads),
          f"{what}: every gradient is made before the update")
    keep = cats["weight"] + cats.get("optimizer", 0)
    pr = json.loads(memtris(g, "schedule", "-p", "priority", "--format", "json").stdout)["peak"]
    check(pr >= keep, f"{what}: weights and state live all step in any order: priority {pr} >= {keep}")
    measured = g.get("Measured", {}).get("peak", -1)
    peak, how = given_peak(g)
    check(measured > 0 and abs(peak - measured) <= 0.10 * measured,
          f"{what}: the given-order peak {peak} ({how}) within 10% of the measured {measured}")
    print(f"{what}: given peak {peak} ({how}), measured {measured}, {100 * (peak / measured - 1):+.1f}%")

g = fx2memtris.export_train(model, [16, 64], torch.float32, "sgd", "sum")
check("Measured" not in g, "no Measured without --measure")
check(categories(g).get("output") == 4, "--loss sum: the loss is the output")
comp = [n for n in g["Nodes"] if n["Op"] not in ("ALLOC", "FREE")]
upd = [n for n in comp if n.get("Phase") == "optimizer" and n["Op"].endswith("_")]
# torch 1.13's native_batch_norm schema does not mark the running stats as written
weights = {n["BufId"] for n in g["Nodes"] if n.get("Category") == "weight" and "running_" not in n["Name"]}
check(upd and all(n.get("InPlace") for n in upd), f"each SGD update has an InPlace: {upd[:2]}")
check(all(set(n["InPlace"]) <= set(n["Inputs"]) for n in comp if "InPlace" in n),
      "InPlace lists Inputs only")
changed = {b for n in comp for b in n.get("InPlace", [])}
check(weights <= changed, "the parameters are changed in place by their updates (and "
      f"num_batches_tracked by add_): not {sorted(weights - changed)}, also {sorted(changed - weights)}")
# ... which the exporter knows (fxtrain.UNANNOTATED_WRITES): the batch norm changes them in place.
bn = next(n for n in comp if n["Op"] == "native_batch_norm")
running = {n["BufId"] for n in g["Nodes"] if n["Op"] == "ALLOC" and "running_" in n["Name"]}
check(len(running) == 2 and running <= set(bn.get("InPlace", [])),
      f"native_batch_norm (training) changes its running mean and variance in place: {bn}")
check(all(isinstance(n.get("Trace"), str) for n in comp) and len({n["Trace"] for n in comp}) == len(comp) and
      all(n["Trace"] == n["Name"] for n in comp if n["Op"] not in ("Input", "Output")),
      "every compute node has a Trace of its own: its traced op's name")


class MatMul3(nn.Module):
    """x @ w of a 3-D x: autograd records _unsafe_view, which aliases its input."""
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(8, 8))

    def forward(self, x):
        return (x @ self.w).relu()


gu = fx2memtris.export_train(MatMul3(), [2, 3, 8], torch.float32, "sgd", "sum")
uv = [n for n in gu["Nodes"] if n["Op"] == "_unsafe_view"]
own = {n["Name"] for n in gu["Nodes"] if n["Op"] == "ALLOC"}
check(uv and not any(n["Name"] + ".out" in own for n in uv),
      f"_unsafe_view allocates nothing: it is a view (fxtrain.UNANNOTATED_ALIASES): {uv[:2]}")
check_order(gu, "MatMul3 --train")

# Workspaces (--measure, tools/workspaces.py): measured as what an op takes beyond its outputs,
# and put in the graph as a buffer of the op's own, ALLOC just before it and FREE just after.
import workspaces  # noqa: E402
gw, ex, gmw = fxtrain.export_train(mlp(), [16, 64], torch.float32, graphkit, "sgd", "sum")
flat, _, _ = fxtrain.step_inputs(mlp().train(), "sgd", "sum", [16, 64], None)
ws = workspaces.measure(gmw, ex, gw, flat)
cids = {n["Id"] for n in gw["Nodes"] if n["Op"] not in ("ALLOC", "FREE")}
check(set(ws) == cids and all(isinstance(v, int) and v >= 0 for v in ws.values()),
      "workspaces.measure: bytes for every compute node, none negative")
addmm_id = next(n["Id"] for n in gw["Nodes"] if n["Op"] == "addmm")
before = given_peak(gw)[0]
workspaces.add(gw, {addmm_id: 1 << 20, next(iter(cids)): 100})
check_order(gw, "a graph with a workspace")
a = [n for n in gw["Nodes"] if n.get("Name", "").endswith(".workspace")]
op = next(n for n in gw["Nodes"] if n.get("Workspace"))
check(len(a) == 2 and a[0]["Op"] == "ALLOC" and a[0]["Size"] == 1 << 20 and a[0]["Category"] == "workspace" and
      gw["Nodes"][a[0]["Id"] + 1] is op and a[1]["Op"] == "FREE" and gw["Nodes"][op["Id"] + 1] is a[1] and
      op["Workspace"] == a[0]["BufId"] and a[0]["BufId"] in op["Inputs"],
      "a workspace of 1 MiB: ALLOC, its op (Inputs, Workspace), FREE; 100 bytes left out")
check(before < 1 << 20 <= given_peak(gw)[0], "the workspace raises the given peak as its op runs")

gf = fx2memtris.export_train(model, [16, 64], torch.float32, "sgd", "sum", flops=True)
comp = [n for n in gf["Nodes"] if n["Op"] not in ("ALLOC", "FREE")]
check(all("Latency" in n for n in comp), "--train --latency flops: a Latency on every compute node")
addmm = next(n for n in comp if n["Op"] == "addmm")
check(addmm["Latency"] == graphkit.round_sig(1e3 * 2 * 16 * 256 * 64 / graphkit.FLOPS_PER_SECOND),
      f"the first Linear's addmm: 2*16*256*64 flops at 50 GFLOP/s, got {addmm['Latency']}")
check(all(n["Latency"] == 0 for n in comp if n["Op"] in ("t", "view", "Input", "Output")),
      "aliases, Input and Output: Latency 0")
check_order(gf, "mlp --train --latency flops")
gm_ = fx2memtris.export_train(model, [16, 64], torch.float32, "momentum", "sum", timing=(2, 1))
comp = [n for n in gm_["Nodes"] if n["Op"] not in ("ALLOC", "FREE")]
check(all(n.get("Latency", -1) >= 0 for n in comp) and
      any(n["Latency"] > 0 for n in comp if n["Op"] == "addmm"),
      "--train --latency measure: a measured Latency on every compute node")
check(torch.get_num_threads() == threads_before, "--latency measure puts torch's thread count back")

# Forward export falls back to make_fx where symbolic tracing fails.
try:
    torch.fx.symbolic_trace(Split())
    check(False, "symbolic_trace fails on Split (else this part tests nothing)")
except Exception:
    pass
f = fx2memtris.export(Split().eval(), [1, 4, 3, 3], torch.float32, False)
check_order(f, "Split forward (make_fx)")
check(set(categories(f)) == {"input", "activation", "output"}, f"Split forward categories {categories(f)}")
check(all(n.get("Phase") == "forward" for n in f["Nodes"] if n["Op"] not in ("ALLOC", "FREE")),
      "Split forward: Phase forward on every compute node")
check(not any(n.get("Category") == "weight" for n in f["Nodes"]), "Split forward: no weights without --params")
fp = fx2memtris.export(Split().eval(), [1, 4, 3, 3], torch.float32, True)
check(categories(fp).get("weight") == 4 * (16 + 4), f"Split --params: the conv's weights {categories(fp)}")
check_order(fp, "Split forward --params")
threads_before = torch.get_num_threads()
fm = fx2memtris.export(Split().eval(), [1, 4, 3, 3], torch.float32, False, latency="measure", repeats=2)
fm_comp = [n for n in fm["Nodes"] if n["Op"] not in ("ALLOC", "FREE")]
check(all(isinstance(n.get("Latency"), float) and n["Latency"] >= 0 for n in fm_comp)
      and any(n["Latency"] > 0 for n in fm_comp if n["Op"] == "convolution"),
      "Split forward (make_fx) --latency measure: a measured Latency on every compute node")
check(torch.get_num_threads() == threads_before, "make_fx --latency measure puts torch's thread count back")
strip = [{k: v for k, v in n.items() if k != "Latency"} for n in fm["Nodes"]]
check(strip == f["Nodes"] and fm["Edges"] == f["Edges"], "make_fx --latency measure changes nothing but Latency")

# The symbolic forward export with --execution-order.
t = fx2memtris.export(Tiny().eval(), [1, 3, 4, 4], torch.float32, True, order=True)
check_order(t, "Tiny --execution-order --params")
tc = {n["Name"]: n.get("Category") for n in t["Nodes"] if n["Op"] == "ALLOC"}
check(tc == {"input.out": "input", "conv.out": "activation", "fc.out": "activation", "mul.out": "output",
             "param.conv.weight.out": "weight", "param.conv.bias.out": "weight", "param.fc.weight.out": "weight",
             "param.fc.bias.out": "weight"}, f"Tiny --execution-order categories: {tc}")
check(all(n.get("Phase") == "forward" for n in t["Nodes"] if n["Op"] not in ("ALLOC", "FREE")),
      "Tiny --execution-order: Phase forward on every compute node")
plain = fx2memtris.export(Tiny().eval(), [1, 3, 4, 4], torch.float32, True)
check(given_peak(t)[0] < given_peak(plain)[0], "FREEs after last use lower the given-order peak")

tool = os.path.join(src, "tools", "fx2memtris.py")
r = subprocess.run([sys.executable, tool, "torch.nn:Identity", "--make-fx", "--input-shape", "4", "--params"],
                   capture_output=True, text=True)
ok = r.returncode == 0
m = json.loads(r.stdout) if ok else {}
check(ok and [n["Op"] for n in m["Nodes"]] == ["ALLOC", "Input", "Output", "FREE"] and
      m["Nodes"][0].get("Category") == "input" and m["Nodes"][1].get("Phase") == "forward",
      f"--make-fx on Identity: the input ALLOC (an input, though also the result), Input, Output, FREE: "
      f"{r.stdout[:300]} {r.stderr}")
r = subprocess.run([sys.executable, tool, "resnet18", "--measure"], capture_output=True, text=True)
check(r.returncode == 2 and "--train" in r.stderr, f"--measure without --train is refused: {r.stderr}")
finish()
