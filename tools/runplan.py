#!/usr/bin/python3
"""runplan.py: runs a memtris plan on the real model in PyTorch and measures it.

Usage: runplan.py MODEL [--batch N] [--input-shape C,H,W] [--loss sum|cross-entropy]
                  [--optimizer sgd|momentum|adam] [--seed S] --graph G.json
                  (--order SCHEDULE.json | --budget-plan PLAN.json)
                  [--device cpu|cuda] [--threads N] [-o REPLAY.json]

It traces the training step fx2memtris.py --train exports for the same MODEL
and options (tools/fxtrain.py), binds G.json to it (every compute node's
"Trace" key names its traced op; a graph that is not this model's step is
refused, naming the first node that differs), builds real tensors (weights,
inputs and labels from torch.manual_seed(--seed), as fx2memtris.py --seed
does), and executes the traced aten ops in the plan's order
(tools/planexec.py):
- an order, `memtris schedule G.json -p POLICY -f json` (any policy): each
  compute node once, each tensor dropped at its FREE with its views;
- a budget plan, `memtris budget G.json ... -f json`: its events, run (a
  rerun computes the node again from what is present), free, offload and
  fetch (on CUDA to and from pinned host memory; on the CPU the copy is held
  as a NumPy array outside torch's allocator, so its bytes leave what is
  measured), and host: a weight or optimizer state that starts on the host
  (copied there before the start is measured; its first use fetches it). A
  never-freed tensor the plan leaves on the host is compared as copied there.
A plan whose event needs a tensor that is not present is refused with the
event's number and why. After each event it measures the bytes of the live
tensors' storages (each storage once) and, independently, the allocator's
(the CPU: torch.profiler's allocations, profile_memory; CUDA:
memory_allocated, max_memory_allocated, mem_get_info); what exists before the
step (weights, optimizer state) is counted on both sides from its ALLOC (an
order) or from the start (a budget plan). It also runs the plain step
(PyTorch's own, eager, no plan) from the same seed and compares the loss and
every parameter, module buffer and optimizer state bit for bit: a plan that
changes one bit fails (status 1), naming the first tensor that differs.
Random ops (dropout) run with the generator state they had in the plain step.

An order's ALLOC takes its bytes when the order says (a placeholder of its
Size, given back as its op runs and allocates the tensor), so that what is
measured is the order memtris planned. It prints predicted and measured
peaks, the first step where the live storages or the allocator part from
the prediction by more than 1%, and the wall times: the plan's, the given order's through the same
executor and the plain step's. -o writes the saved-replay format of
`memtris replay --format json` (backend torch-cpu or torch-cuda, mode raw):
`memtris view G.json --replay REPLAY.json` draws the measured curve over the
predicted one (a budget plan's replay carries the plan, and the view steps
it). Exit status: 0 run and equal, 1 refused, unequal or failed, 2 usage.
"""
import json
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graphkit  # noqa: E402

NAME = "runplan"
try:
    import torch
except ImportError as e:   # pragma: no cover - reported to the user
    sys.exit(f"{NAME}: cannot import torch ({e}); install python3-torch and run with /usr/bin/python3")
import fx2memtris  # noqa: E402
import fxtrain  # noqa: E402
import planexec  # noqa: E402
import workspaces  # noqa: E402

PART = 0.01           # "parts": live storages more than 1% from the prediction
MAX_THREADS = 1024


class RunError(Exception):
    """A refusal or a failure: one line, status 1."""


# ------------------------------------------------------------ the step
class Traced:
    """MODEL's training step, traced once, and what every plan of it shares:
    the exported graph, the binding, the step's inputs, the plain step's
    results and the given order's run (time and random states)."""

    def __init__(self, spec, shape, optimizer="sgd", loss="sum", seed=0, device="cpu", threads=1, repeats=3):
        self.spec, self.shape, self.optimizer, self.loss, self.seed = spec, list(shape), optimizer, loss, seed
        self.device = torch.device(device)
        self.threads, self.repeats = threads, repeats
        torch.set_num_threads(threads)
        torch.manual_seed(seed)
        model = fx2memtris.load_model(spec)
        classes = fxtrain.output_classes(model, shape) if loss == "cross-entropy" else None
        try:
            self.gm, flat, roles, self.names, n_params = fxtrain.trace_train(model, shape, optimizer, loss, classes)
            self.graph, self.ex = fxtrain.export_traced(self.gm, flat, roles, self.names, n_params,
                                                        torch.float32, graphkit)
        except fxtrain.TrainError as e:
            raise RunError(str(e))
        self.bd = planexec.Binding(self.gm, self.ex, self.graph)
        self.master = [t.detach().to(self.device).clone() for t in flat]
        self.n_params = n_params
        self.model = model.to(self.device) if self.device.type == "cuda" else model
        self.state0 = planexec.get_states(self.device)
        self.plain, self.plain_s = self.plain_step()
        self.rng = {}
        given = planexec.order_events(self.bd, [nd["Id"] for nd in self.graph["Nodes"]])
        run, _, _ = self.timed(given, record=True)       # records the random ops' states; warms up
        self.compare(run, "the given order")

    def bind(self, graph):
        """Plans name graph's Ids (check_graph said it is this step's)."""
        self.bd = planexec.Binding(self.gm, self.ex, graph)
        self.graph = graph

    def copies(self):
        return [t.clone() for t in self.master]

    def plain_step(self):
        """PyTorch's own step (eager, no plan): (the loss and every input
        after it, as NumPy arrays; seconds)."""
        import time
        flat = self.copies()
        for t in flat[:self.n_params]:
            t.requires_grad_(True)
        n_buffers = len(list(self.model.buffers()))
        step = fxtrain.make_step(self.model, self.optimizer, self.loss, self.n_params, n_buffers, False)
        planexec.set_states(self.state0, self.device)
        self.sync()
        t0 = time.perf_counter()
        out = step(*flat)
        self.sync()
        seconds = time.perf_counter() - t0
        values = [out[0].detach().cpu().numpy().copy()] + [t.detach().cpu().numpy().copy() for t in flat]
        return values, seconds

    def sync(self):
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)

    def timed(self, events, record=False, budget=False):
        planexec.set_states(self.state0, self.device)
        return planexec.timed(self.bd, self.copies, events, self.device, self.rng, record, budget)

    def median(self, events, budget=False):
        """--repeats timed runs of the plan, each after one of the graph's given order (so that
        the machine's load falls on both alike): (the plan's run of median seconds, its seconds,
        its ms each event; the given order's median seconds). Every run is compared."""
        given = planexec.order_events(self.bd, [nd["Id"] for nd in self.graph["Nodes"]])
        plans, base = [], []
        for _ in range(self.repeats):
            g = self.timed(given)
            self.compare(g[0], "the given order")
            base.append(g[1])
            plans.append(self.timed(events, budget=budget))
            self.compare(plans[-1][0], "the plan")
        plans.sort(key=lambda r: r[1])
        return plans[len(plans) // 2] + (sorted(base)[len(base) // 2],)

    def measured(self, events, budget=False):
        planexec.set_states(self.state0, self.device)
        return planexec.measured(self.bd, self.copies, events, self.device, self.rng, budget)

    def compare(self, run, what):
        """Raises RunError naming the first tensor run left different from
        the plain step's; else the number of tensors compared."""
        got = [run.loss] + [run.final.get(ph) for ph in self.bd.placeholders]
        names = ["the loss"] + self.names
        for name, a, b in zip(names, got, self.plain):
            if a is None:
                raise RunError(f"{what}: {name} was never computed")
            if a.dtype != b.dtype or a.shape != b.shape or a.tobytes() != b.tobytes():
                raise RunError(f"{what} changes the step's results: {name} differs from the plain step's"
                               f"{first_difference(a, b)}")
        return len(got)


def first_difference(a, b):
    if a.shape != b.shape or a.dtype != b.dtype:
        return f" (shape {list(a.shape)} {a.dtype} against {list(b.shape)} {b.dtype})"
    fa, fb = a.reshape(-1), b.reshape(-1)
    for k in range(fa.size):
        if fa[k:k + 1].tobytes() != fb[k:k + 1].tobytes():
            return f" (element {k}: {fa[k]!r} against {fb[k]!r})"
    return ""


# ------------------------------------------------------------ binding G.json
def check_graph(mine, theirs, gname):
    """None when theirs (G.json) is the graph of this step (mine: the
    export, without workspaces), else why not, naming the first node that
    differs. Nodes are matched by their keys (a compute node's Trace, an
    ALLOC's or FREE's BufId), so that the workspaces fx2memtris.py
    --measure adds (an op's "Workspace", its ALLOC and FREE) may be there."""
    nodes = theirs.get("Nodes") if isinstance(theirs, dict) else None
    if not isinstance(nodes, list) or not isinstance(theirs.get("Edges", []), list):
        return f"{gname} is not a memtris graph (no \"Nodes\" list)"
    for nd in nodes:
        if not isinstance(nd, dict) or not isinstance(nd.get("Id"), int) or not isinstance(nd.get("Op"), str):
            return f"{gname}: a node without an integer Id or an Op"
    ws = {nd["Workspace"] for nd in nodes if nd["Op"] not in ("ALLOC", "FREE") and "Workspace" in nd}
    traced = {nd["Trace"]: nd for nd in mine["Nodes"] if "Trace" in nd}
    bufs = {(nd["Op"], nd["BufId"]): nd for nd in mine["Nodes"] if nd["Op"] in ("ALLOC", "FREE")}
    for nd in nodes:            # the ops first: another model's graph is named by one
        i, op, key = nd["Id"], nd["Op"], nd.get("Trace")
        if op in ("ALLOC", "FREE"):
            continue
        if not isinstance(key, str):
            return (f"{gname} node {i} ({nd.get('Name', op)}) has no \"Trace\" key: export the graph with "
                    f"fx2memtris.py --train from this version")
        if key not in traced:
            return f"{gname} node {i} ({key}) is not in this model's trace"
    to_mine = {}
    for nd in nodes:
        i, op = nd["Id"], nd["Op"]
        if op in ("ALLOC", "FREE"):
            if nd.get("BufId") in ws:
                continue
            m = bufs.get((op, nd.get("BufId")))
            if m is None:
                return f"{gname} node {i} ({op} of BufId {nd.get('BufId')}) is not in this model's step"
            if op == "ALLOC" and nd.get("Size") != m["Size"]:
                return (f"{gname} node {i} (ALLOC of BufId {nd['BufId']}, {nd.get('Name', '')}): Size {nd.get('Size')} "
                        f"where this model's step makes {m['Size']} bytes (another --batch, --input-shape, --dtype?)")
        else:
            key = nd["Trace"]           # there and traced: the loop above
            m = traced[key]
            if m["Op"] != op:
                return f"{gname} node {i} ({key}) is {op} where this model's trace has {m['Op']}"
            for field in ("Inputs", "InPlace"):
                got = [b for b in nd.get(field, []) if b not in ws] if isinstance(nd.get(field, []), list) else None
                if got != m.get(field, []):
                    return (f"{gname} node {i} ({key}): {field} {nd.get(field)} where this model's step has "
                            f"{m.get(field, [])} (another model or other options?)")
        to_mine[i] = m["Id"]
    if len(to_mine) != len(mine["Nodes"]) or len(set(to_mine.values())) != len(to_mine):
        return f"{gname} has {len(to_mine)} nodes besides workspaces where this model's step has {len(mine['Nodes'])}"
    edges = set()
    for e in theirs.get("Edges", []):
        if isinstance(e, list) and len(e) == 2 and e[0] in to_mine and e[1] in to_mine:
            edges.add((to_mine[e[0]], to_mine[e[1]]))
    if edges != {tuple(e) for e in mine["Edges"]}:
        return f"{gname}: its Edges are not this model's step's"
    return None


# ------------------------------------------------------------ plans
def order_plan(tr, sched, sname):
    """A schedule's events and predicted bytes after each step."""
    order, memory = sched.get("order"), sched.get("memory")
    if not isinstance(order, list) or not isinstance(memory, list) or len(order) != len(memory):
        raise RunError(f"{sname} is not 'memtris schedule -f json' output (\"order\" and \"memory\")")
    ids = {nd["Id"] for nd in tr.graph["Nodes"]}
    if sorted(order) != sorted(ids):
        bad = next((i for i in order if i not in ids), None)
        why = f"Id {bad} is no node of the graph" if bad is not None else "it does not run every node once"
        raise RunError(f"{sname}: its order is not one of this graph's: {why}")
    return planexec.order_events(tr.bd, order), memory


def budget_plan(tr, plan, pname):
    if plan.get("feasible") is False:
        raise RunError(f"{pname} holds no plan: {plan.get('why', 'memtris found none')}")
    events, memory = plan.get("events"), plan.get("memory")
    if not isinstance(events, list) or not isinstance(memory, list) or len(memory) != len(events):
        raise RunError(f"{pname} is not 'memtris budget -f json' output with a plan (\"events\" and \"memory\")")
    out = []
    for k, e in enumerate(events):
        if not (isinstance(e, list) and len(e) == 2 and e[0] in ("run", "free", "offload", "fetch", "host")
                and isinstance(e[1], int)):
            raise RunError(f"{pname}: event {k + 1} is not [\"run\", Id] or "
                           f"[\"free\"|\"offload\"|\"fetch\"|\"host\", BufId]")
        if e[0] == "run" and e[1] not in tr.bd.fx:
            raise RunError(f"{pname}: event {k + 1} runs Id {e[1]}, no compute node of the graph")
        if e[0] != "run" and e[1] not in tr.bd.size:
            raise RunError(f"{pname}: event {k + 1} ({e[0]}) names BufId {e[1]}, no buffer of the graph")
        out.append((e[0], e[1], e[1] if e[0] == "run" else None))
    return out, memory


# ------------------------------------------------------------ running one
def run_plan(tr, events, predicted, budget=None):
    """Runs one plan three ways (measured, timed, compared): the result as a
    dict, the saved replay's fields among them."""
    b = budget is not None
    try:
        run, m = tr.measured(events, b)
        tr.compare(run, "the plan (measured run)")
        run, seconds, ms, given_s = tr.median(events, budget=b)
    except planexec.PlanError as e:
        raise RunError(str(e))
    n_compared = tr.compare(run, "the plan")
    start = None
    if b:
        start = {k: v[0] for k, v in m.items() if isinstance(v, list)}
        m = {k: v[1:] for k, v in m.items() if isinstance(v, list)}
    steps = []
    parts = {"live": None, "allocator": None}
    for k, (kind, x, i) in enumerate(events):
        s = {"step": k + 1, "node": x if i is None else i, "predicted": predicted[k],
             "measured": m["allocator_peak"][k], "live": m["live"][k], "allocator": m["allocator"][k],
             "workspace": m["workspace"][k], "ms": round(ms[k], 6)}
        if "device_used" in m:
            s["device_used"] = m["device_used"][k]
        if b:
            s["event"] = kind
        steps.append(s)
        for key, got in (("live", s["live"]), ("allocator", s["measured"])):
            if parts[key] is None and apart(got, predicted[k]):
                parts[key] = {"step": k + 1, "node": s["node"], "predicted": predicted[k], "measured": got}
    if b:
        for p in parts.values():
            if p is not None:
                p["event"] = events[p["step"] - 1][0]

    def top(key, f=lambda s: s):
        k = max(range(len(steps)), key=lambda j: (f(steps[j])[key] if key else f(steps[j]), -j))
        return k
    peak, meas = top("predicted"), top("measured")
    excess = top(None, lambda s: s["measured"] - s["predicted"])
    live = top("live")
    res = {"backend": f"torch-{tr.device.type}", "mode": "raw", "policy": "given",
           "device": device_words(tr), "device_total": device_total(tr),
           "versions": f"torch {torch.__version__}", "steps": steps,
           "predicted_peak": steps[peak]["predicted"], "predicted_peak_step": peak + 1,
           "measured_peak": steps[meas]["measured"], "measured_peak_step": meas + 1,
           "max_excess": steps[excess]["measured"] - steps[excess]["predicted"],
           "max_excess_step": excess + 1, "baseline": 0, "residual": m["allocator"][-1] if steps else 0,
           "held": 0, "seconds": round(seconds, 6), "complete": True, "total_steps": len(steps),
           "measured_is": ("the allocator's highest reading in each step (torch.cuda.max_memory_allocated)"
                           if tr.device.type == "cuda" else
                           "the allocator's highest reading in each step (torch.profiler, profile_memory)"),
           "live_peak": steps[live]["live"], "live_peak_step": live + 1,
           "plain_seconds": round(tr.plain_s, 6), "given_seconds": round(given_s, 6),
           "bit_for_bit": True, "tensors_compared": n_compared, "parts": parts,
           "model": {"model": tr.spec, "batch": tr.shape[0], "input_shape": tr.shape[1:], "loss": tr.loss,
                     "optimizer": tr.optimizer, "seed": tr.seed, "threads": tr.threads,
                     "repeats": tr.repeats}}
    if start is not None:
        res["start"] = {"measured": start["allocator"], "live": start["live"]}
    seen = set()
    res["rerun_ms"] = 0.0          # the wall time of the runs after a node's first
    for s, (kind, x, i) in zip(steps, events):
        if kind == "run":
            res["rerun_ms"] += s["ms"] if x in seen else 0
            seen.add(x)
    res["rerun_ms"] = round(res["rerun_ms"], 6)
    if b:
        res["budget_plan"] = budget
    return res


def apart(measured, predicted):
    """More than 1% apart, and by more than the temporaries the graph leaves
    out (workspaces.MIN_BYTES)."""
    return abs(measured - predicted) > max(PART * predicted, workspaces.MIN_BYTES)


def device_words(tr):
    if tr.device.type == "cuda":
        return torch.cuda.get_device_name(tr.device)
    return f"cpu: {platform.machine()}, {tr.threads} thread{'s' if tr.threads != 1 else ''}"


def device_total(tr):
    if tr.device.type == "cuda":
        return torch.cuda.get_device_properties(tr.device).total_memory
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 0


# ------------------------------------------------------------ saying it
def human(n):
    for unit, k in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if abs(n) >= 1 << k:
            return f"{n / (1 << k):.2f} {unit}"
    return f"{n} B"


def report(res, what, tr, f=None):
    """The text: what ran, the peaks, where they part, the times, the results (to f, else
    standard output)."""
    f = f or sys.stdout
    md = res["model"]
    shape = "x".join(map(str, md["input_shape"]))
    threads = f"{md['threads']} thread{'s' if md['threads'] != 1 else ''}"
    where = res["device"] if tr.device.type == "cuda" else f"the CPU ({threads})"
    print(f"runplan: {md['model']}, batch {md['batch']}, input {shape}, loss {md['loss']}, optimizer "
          f"{md['optimizer']}, seed {md['seed']}, on {where}", file=f)
    print(f"plan: {what}, {len(res['steps'])} {'events' if 'budget_plan' in res else 'steps'}", file=f)
    p = res["predicted_peak"]
    how = "max_memory_allocated" if tr.device.type == "cuda" else "torch.profiler"
    print(f"peak: predicted     {human(p)} ({p} B) at step {res['predicted_peak_step']}", file=f)
    print(f"      live storages {human(res['live_peak'])} ({res['live_peak']} B) at step {res['live_peak_step']}, "
          f"{ratio(res['live_peak'], p)}", file=f)
    print(f"      allocator     {human(res['measured_peak'])} ({res['measured_peak']} B) at step "
          f"{res['measured_peak_step']}, {ratio(res['measured_peak'], p)} ({how}: with the temporaries inside "
          f"ops)", file=f)
    if "budget_plan" in res:
        bp = res["budget_plan"]
        fits = "within" if res["live_peak"] <= bp["budget"] else "OVER"
        print(f"budget: {human(bp['budget'])} ({bp['budget']} B): the live storages peak {fits} it, the "
              f"allocator at {ratio(res['measured_peak'], bp['budget'])} it", file=f)
        if bp.get("offloaded_bytes"):
            kept = ("pinned host memory" if tr.device.type == "cuda" else
                    "NumPy copies outside torch's allocator: their bytes leave what is measured")
            print(f"offload: {human(bp['offloaded_bytes'])} copied out, held as {kept}", file=f)
    for key, label in (("live", "live storages"), ("allocator", "allocator")):
        pt = res["parts"][key]
        if pt is None:
            print(f"parts: the {label} nowhere (within 1% of the prediction at every step)", file=f)
        else:
            d = pt["measured"] - pt["predicted"]
            print(f"parts: the {label} first at step {pt['step']} ({describe(pt, tr)}): predicted "
                  f"{human(pt['predicted'])}, measured {human(pt['measured'])} "
                  f"({'+' if d >= 0 else ''}{100 * d / max(pt['predicted'], 1):.1f}%)", file=f)
    extra = 1e3 * (res["seconds"] - res["given_seconds"])
    line = (f"time: the plan {res['seconds']:.3f} s, the given order {res['given_seconds']:.3f} s "
            f"({'+' if extra >= 0 else ''}{extra:.1f} ms; medians of {md['repeats']}, alternating), PyTorch's own "
            f"step {res['plain_seconds']:.3f} s")
    if "budget_plan" in res and not any("Latency" in nd for nd in tr.graph["Nodes"]):
        line += (f"; the reruns took {res['rerun_ms']:.1f} ms (the graph has no Latency, so memtris predicts "
                 f"no time for them: fx2memtris.py --latency measure)")
    elif "budget_plan" in res:
        line += (f"; the reruns took {res['rerun_ms']:.1f} ms where memtris predicts "
                 f"{res['budget_plan'].get('extra_ms') or 0:g} ms extra")
    print(line, file=f)
    print(f"results: bit for bit those of the plain step (the loss and {res['tensors_compared'] - 1} tensors: "
          f"parameters, module buffers, optimizer state, inputs)", file=f)


def ratio(x, of):
    return f"{x / of:.4f}x" if of else "n/a"


def describe(s, tr):
    kind = s.get("event") or tr.bd.kind.get(s["node"], "?")
    node = s["node"]
    if kind in ("run", "compute"):
        return f"run Id {node}, {tr.bd.fx[node].name}"
    if kind in ("ALLOC", "FREE"):
        return f"{kind} Id {node}, {tr.bd.label(tr.bd.buf[node])}"
    return f"{kind} {tr.bd.label(node)}"


# ------------------------------------------------------------ main
def load_json(path, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise RunError(f"{what} {path}: {e.strerror or e}")
    except ValueError as e:
        raise RunError(f"{what} {path}: not JSON ({fxtrain.first_line(e)})")


def main(argv=None):
    ap = graphkit.ArgumentParser(prog="runplan.py", name=NAME, description=__doc__.split("\n\n")[0])
    ap.add_argument("model", help="torchvision model name, or module.path:ClassOrFactory (as fx2memtris.py)")
    ap.add_argument("--input-shape", default="3,224,224", help="input shape without the batch (default 3,224,224)")
    ap.add_argument("--batch", type=int, default=1, help="batch size (default 1)")
    ap.add_argument("--loss", default="sum", choices=fxtrain.LOSSES, help="the loss (default sum)")
    ap.add_argument("--optimizer", default="sgd", choices=fxtrain.OPTIMIZERS, help="the update (default sgd)")
    ap.add_argument("--seed", type=int, default=0, help="torch.manual_seed for weights and inputs (default 0)")
    ap.add_argument("--graph", required=True, help="the step's memtris graph (fx2memtris.py --train)")
    plan = ap.add_mutually_exclusive_group(required=True)
    plan.add_argument("--order", help="an order: memtris schedule G.json -p POLICY -f json")
    plan.add_argument("--budget-plan", help="a budget plan: memtris budget G.json -b SIZE -f json")
    ap.add_argument("--device", default="cpu", choices=("cpu", "cuda"), help="where to run (default cpu)")
    ap.add_argument("--threads", type=int, default=1,
                    help=f"torch threads of the timed runs, 1 to {MAX_THREADS} (default 1; the CPU's measured run "
                         f"takes one, so that the profiler's record keeps its order)")
    ap.add_argument("--repeats", type=int, default=3,
                    help="timed runs of the plan and of the given order, the median kept (default 3)")
    ap.add_argument("-o", "--output", help="write the saved replay (memtris view G.json --replay FILE)")
    a = ap.parse_args(argv)
    if not 1 <= a.threads <= MAX_THREADS:
        ap.error(f"--threads must be from 1 to {MAX_THREADS}, got {a.threads}")
    if not 1 <= a.repeats <= 1000:
        ap.error(f"--repeats must be from 1 to 1000, got {a.repeats}")
    if not 0 <= a.seed < 2**63:
        ap.error(f"--seed must be from 0 to 2^63-1, got {a.seed}")
    try:
        shape = [a.batch] + [int(x) for x in a.input_shape.split(",")]   # "" or "3,,4": usage
    except ValueError:
        ap.error(f"--input-shape must be comma-separated integers, got '{a.input_shape}'")
    fx2memtris.input_bytes_check(ap, shape)
    if a.output is not None:
        graphkit.check_output_option(ap, a.output)
        if graphkit.output_problem(NAME, a.output):
            return 1
    if a.device == "cuda" and not torch.cuda.is_available():
        graphkit.say(NAME, "--device cuda: torch sees no CUDA device (torch.cuda.is_available() is False)")
        return 1
    try:
        g = load_json(a.graph, "--graph")
        pfile = a.order or a.budget_plan
        p = load_json(pfile, "--order" if a.order else "--budget-plan")
        if not isinstance(p, dict):
            raise RunError(f"{pfile} is not memtris JSON output (an object)")
        sys.path.insert(0, ".")
        tr = Traced(a.model, shape, a.optimizer, a.loss, a.seed, a.device, a.threads, a.repeats)
        why = check_graph(tr.graph, g, a.graph)
        if why:
            raise RunError(why)
        tr.bind(g)
        if a.order:
            events, predicted = order_plan(tr, p, pfile)
            res = run_plan(tr, events, predicted)
            res["policy"] = str(p.get("policy", "given"))
            what = f"the order of policy {res['policy']} ({pfile})"
        else:
            events, predicted = budget_plan(tr, p, pfile)
            bp = {k: p.get(k) for k in ("budget", "budget_free_peak", "solver", "peak", "extra_ms", "reruns",
                                         "offloaded_bytes", "bandwidth", "initial")}
            bp["events"] = p["events"]
            res = run_plan(tr, events, predicted, bp)
            what = (f"budget {human(bp['budget'])} by {bp['solver']} ({pfile}), {bp['reruns']} reruns, "
                    f"{human(bp['offloaded_bytes'] or 0)} offloaded")
    except fx2memtris.ExportError as e:
        graphkit.say(NAME, str(e))
        return 1
    except RunError as e:
        graphkit.say(NAME, str(e))
        return 1
    except RuntimeError as e:
        graphkit.say(NAME, f"running the step failed: {fxtrain.first_line(e)}")
        return 1
    report(res, what, tr)
    if a.output is not None:
        text = json.dumps(res, separators=(", ", ": ")) + "\n"
        return graphkit.write_output(NAME, a.output, lambda f: f.write(text))
    return 0


if __name__ == "__main__":
    sys.exit(graphkit.run_tool(NAME, main))
