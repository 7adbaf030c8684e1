"""planexec.py: runplan.py's engine. It executes the aten ops of a training
step that fxtrain.py traced, on real tensors, one memtris event at a time
(an order's steps or a budget plan's run, free, offload and fetch, and its
weights and state that start on the host), and
measures memory after every event two ways: the bytes of the live tensors'
storages (each storage once) and the allocator's (on the CPU torch.profiler's
allocations, profile_memory; on CUDA torch.cuda.memory_allocated, its peak
and cudaMemGetInfo through torch.cuda.mem_get_info).

A memtris compute node is one fx node of the trace (its "Trace" key); a
BufId is the tensor one fx node makes (fxtrain.AtenExporter.maker). The other
fx nodes that name a buffer are views of it (t, view, permute, ...) or ops
that change it in place and return it (add_, relu_, ...); they are made again
from what is present when a run reads them (a view by running its op, an
in-place result as the tensor it changed), so that dropping a buffer drops
every reference to its storage. Random ops (a Generator argument, or rand,
bernoulli, dropout, normal, uniform, ... in the name) run with the generator
state they had in the plain step, which the given order's run records; a
budget plan's run holds, for a random op it runs again, RNG_STATE_BYTES on
the device from its first run to its last, as memtris counts its state."""
import re
import time
import weakref

import torch

import graphkit

# After each event of the measured run a marker tensor of this many bytes is
# made and dropped: its allocation and free, one after the other in the
# profiler's record, end the event (no tensor of the traced steps is 4099
# bytes: that would be 4099 one-byte elements).
MARKER_BYTES = 4099
RANDOM_NAME = re.compile(r"rand|bernoulli|dropout|normal|uniform|exponential|cauchy|geometric|multinomial",
                         re.IGNORECASE)
# memtris's budgets keep a random op's generator state for its reruns (an Op with one of
# these words, not backward): this many bytes (torch.get_rng_state()'s 5056 and a CUDA
# Philox seed and offset), from its first run to its last. A budget plan's run holds them
# on the device, as the plan's memory counts them.
RNG_OP = re.compile(r"rand|dropout|bernoulli|multinomial", re.IGNORECASE)
RNG_STATE_BYTES = 5056 + 16


class PlanError(Exception):
    """The plan asks for a tensor that is not present (or frees, offloads or
    fetches one that cannot be): refused at its event."""


# ------------------------------------------------------------ the binding
class Binding:
    """memtris's Ids and BufIds over the fx nodes of the trace: compute node
    Id -> fx node, BufId -> the fx node that makes it and the fx nodes whose
    value lies in it, and which fx nodes make no tensor of their own."""

    def __init__(self, gm, ex, graph):
        by_name = {n.name: n for n in gm.graph.nodes}
        self.fx = {}                 # compute node Id -> fx node
        self.kind = {}               # Id -> "ALLOC", "FREE" or "compute"
        self.buf = {}                # ALLOC/FREE Id -> BufId
        for nd in graph["Nodes"]:
            op = nd["Op"]
            self.kind[nd["Id"]] = op if op in ("ALLOC", "FREE") else "compute"
            if op in ("ALLOC", "FREE"):
                self.buf[nd["Id"]] = nd["BufId"]
            else:
                self.fx[nd["Id"]] = by_name[nd["Trace"]]
        self.workspace = {}          # compute node Id -> the BufId of its workspace (tools/workspaces.py)
        for nd in graph["Nodes"]:
            if "Workspace" in nd:
                self.workspace[nd["Id"]] = nd["Workspace"]
        self.workspaces = set(self.workspace.values())
        self.maker = dict(ex.maker)  # BufId -> fx node
        self.name = {nd["BufId"]: nd["Name"] for nd in graph["Nodes"] if nd["Op"] == "ALLOC" and "Name" in nd}
        self.name.update(ex.buf_name)
        self.size = {nd["BufId"]: nd["Size"] for nd in graph["Nodes"] if nd["Op"] == "ALLOC"}
        self.rng_state = {nd["Id"] for nd in graph["Nodes"] if nd["Op"] not in ("ALLOC", "FREE")
                          and RNG_OP.search(nd["Op"]) and not re.search("backward", nd["Op"], re.I)}
        self.value = ex.value        # fx node -> BufId, tuple of them, or None
        self.holders = {}            # BufId -> fx nodes whose value lies in it
        for n, v in ex.value.items():
            for b in (v if isinstance(v, tuple) else (v,)):
                if b is not None:
                    self.holders.setdefault(b, []).append(n)
        self.makes = {}              # fx node -> the BufIds it makes
        for b, n in self.maker.items():
            self.makes.setdefault(n, []).append(b)
        # Which run makes a buffer that exists before the step (a weight, the
        # optimizer state, the input), as memtris's budgets say: the first
        # compute node, by Id, that its ALLOC has an edge to (the Input node,
        # which every weight's ALLOC precedes), else none: present from the start.
        first = {}
        for u, v in graph["Edges"]:
            if self.kind.get(u) == "ALLOC" and self.kind.get(v) == "compute":
                first[u] = min(first.get(u, v), v)
        self.producer = {}           # placeholder -> the Id of the run that makes it, or None
        for nd in graph["Nodes"]:
            n = self.maker.get(nd.get("BufId")) if nd["Op"] == "ALLOC" else None
            if n is not None and n.op == "placeholder":
                self.producer[n] = first.get(nd["Id"])
        self.placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]

    def is_random(self, n):
        schema = getattr(n.target, "_schema", None)
        if schema is not None and any(str(a.type).startswith("Optional[Generator]") or str(a.type) == "Generator"
                                      for a in schema.arguments):
            return True
        return bool(RANDOM_NAME.search(str(n.target)))

    def label(self, b):
        return f"BufId {b} ({self.name.get(b, '?')})"


def returned_arg(n):
    """For an op whose result aliases an argument: (that argument, whether the
    op writes it); else None."""
    schema = getattr(n.target, "_schema", None)
    if schema is None or not schema.returns or schema.returns[0].alias_info is None:
        return None
    want = set(schema.returns[0].alias_info.before_set)
    for k, a in enumerate(schema.arguments):
        if a.alias_info is not None and set(a.alias_info.before_set) & want:
            v = n.args[k] if k < len(n.args) else n.kwargs.get(a.name)
            return v, a.alias_info.is_write
    return None


# ------------------------------------------------------------ storages
def whole_storage(t):
    """A one-dimensional tensor over every element of t's storage."""
    return t.as_strided((t.storage().size(),), (1,), 0)


class Live:
    """Every tensor the run has made or taken in, by weak reference: the
    bytes of the storages some live tensor still uses, each storage once."""

    def __init__(self, on=True):
        self.refs, self.on = [], on      # off: a timed run keeps no list

    def add(self, v):
        if not self.on:
            return
        if isinstance(v, torch.Tensor):
            self.refs.append((weakref.ref(v), v.storage().data_ptr(), v.storage().nbytes()))
        elif isinstance(v, (tuple, list)):
            for x in v:
                self.add(x)

    def bytes(self):
        alive, seen, total = [], set(), 0
        for r, ptr, nb in self.refs:
            t = r()
            if t is None:
                continue
            alive.append((r, ptr, nb))
            if ptr not in seen and nb:
                seen.add(ptr)
                total += nb
        self.refs = alive
        return total


# ------------------------------------------------------------ the run
class Run:
    """One execution of a plan on fresh copies of the step's inputs.

    initial: the step's flat inputs (placeholders' order), moved in (the
    run drops them at their FREE, as the step drops its weights). rng: {fx
    node: generator states} for random ops (record=True: fill it). measure:
    None, "cpu" or "cuda"."""

    def __init__(self, bd, initial, device, rng, record=False, measure=None):
        self.bd, self.device, self.rng, self.record, self.measure = bd, device, rng, record, measure
        self.pending = dict(zip(bd.placeholders, initial))   # placeholder -> tensor not yet present
        initial.clear()             # the run holds them alone: its FREEs free them
        self.env = {}               # fx node -> value (a list for ops with several results)
        self.present = set()        # BufIds present
        self.base = {}              # BufId -> its tensor as made (or fetched)
        self.gone = {}              # BufId -> the event that dropped it, for messages
        self.host = {}              # BufId -> (copy, dtype, shape, stride, offset)
        self.final = {}             # placeholder -> its last value, on the host (numpy)
        self.loss = None
        self.live = Live(measure is not None)
        self.entered = 0            # bytes of initial tensors taken in so far
        self.event = 0
        self.budget = False         # a budget plan's run (else an order's)
        self.reserved = {}          # BufId -> the placeholder that holds its bytes (hold)

    # -------------------------------------------------------- values
    def enter(self, ph):
        t = self.pending.pop(ph)
        b = self.bd.value[ph]
        self.env[ph] = t
        self.base[b] = t
        self.present.add(b)
        self.live.add(t)
        self.entered += t.storage().nbytes()

    def resolve(self, n, why):
        """The value of fx node n for a run, made again when n is a view or
        an in-place result of a buffer that is present."""
        if not isinstance(n, torch.fx.Node):
            return n
        if n in self.env:
            return self.env[n]
        bd = self.bd
        v = bd.value.get(n)
        if v is not None and not isinstance(v, tuple) and v not in self.present:
            self.missing(v, why)
        if n.op == "call_function" and getattr(n.target, "__name__", "") == "getitem":
            x = self.resolve(n.args[0], why)[n.args[1]]
            if x is None:
                self.missing(v, why)
            return x
        if n in bd.makes or n.op == "placeholder":
            for b in bd.makes.get(n, [v]):
                if b not in self.present:
                    self.missing(b, why)
            raise PlanError(f"{why}: {n.name} is not present")
        ra = returned_arg(n)
        if ra is not None and ra[1]:          # changed in place: the tensor it changed
            x = self.resolve(ra[0], why)
        else:                                 # a view: made again from its source
            args = torch.fx.node.map_arg(n.args, lambda m: self.resolve(m, why))
            kwargs = torch.fx.node.map_arg(n.kwargs, lambda m: self.resolve(m, why))
            x = n.target(*args, **kwargs)
            self.live.add(x)
        self.env[n] = x
        return x

    def missing(self, b, why):
        when = f" (dropped at event {self.gone[b]})" if b in self.gone else " (never made)"
        raise PlanError(f"{why}: it reads {self.bd.label(b)}, which is not present{when}")

    def drop(self, b):
        """Every reference the run holds to buffer b's storage."""
        for n in self.bd.holders.get(b, []):
            v = self.env.get(n)
            if isinstance(v, list):
                for k, x in enumerate(self.bd.value[n]):
                    if x == b:
                        v[k] = None
                if all(x is None for x in v):
                    del self.env[n]
            elif n in self.env:
                del self.env[n]
        self.base.pop(b, None)
        self.present.discard(b)
        self.gone[b] = self.event

    def start(self, hosted=()):
        """A budget plan's start: what no run makes is present, but the BufIds
        in hosted (the plan's "host" events) start on the host, and their Input
        leaves them there: copied there as an offload copies, counted as taken
        in and given back at once, so that the allocator's reading holds only
        what is on the device."""
        self.budget = True
        for ph in list(self.pending):
            b = self.bd.value[ph]
            if b not in hosted:                 # what its Input makes waits for it
                if self.bd.producer.get(ph) is None:
                    self.enter(ph)
                continue
            t = self.pending.pop(ph)
            self.entered += t.storage().nbytes()
            self.final[ph] = t.detach().cpu().numpy().copy()     # its value, should it stay there
            self.host[b] = host_copy(t, self.device)
            del t

    # -------------------------------------------------------- events
    def run(self, i, why):
        """Runs compute node Id i."""
        bd = self.bd
        n = bd.fx[i]
        if n.op == "placeholder":           # Input: what it makes (an order: its input), if not present
            for ph in list(self.pending):
                if ph is n or self.budget and bd.producer.get(ph) == i:
                    self.enter(ph)
            return
        if n.op == "output":
            loss = self.resolve(n.args[0][0], why)
            self.loss = loss.detach().cpu().numpy().copy()
            return
        args = torch.fx.node.map_arg(n.args, lambda m: self.resolve(m, why))
        kwargs = torch.fx.node.map_arg(n.kwargs, lambda m: self.resolve(m, why))
        if isinstance(kwargs.get("device"), torch.device):   # traced on the CPU: made where the run is
            kwargs = dict(kwargs, device=self.device)
        for b in bd.makes.get(n, []):           # made again: the old one's views go
            if b in self.present:
                self.drop(b)
        for b in bd.makes.get(n, []) + ([bd.workspace[i]] if i in bd.workspace else []):
            self.reserved.pop(b, None)          # what its ALLOCs took, given back as it allocates
        if n in self.rng:
            set_states(self.rng[n], self.device)
        elif self.record and bd.is_random(n):
            self.rng[n] = get_states(self.device)
        r = n.target(*args, **kwargs)
        self.live.add(r)
        if i in bd.workspace:          # made and given back inside the op; the plan holds it till its FREE
            self.hold(bd.workspace[i])
        if isinstance(r, (tuple, list)):
            self.env[n] = list(r)
            for b in bd.makes.get(n, []):
                self.base[b] = r[bd.value[n].index(b)]
        else:
            self.env[n] = r
            for b in bd.makes.get(n, []):
                self.base[b] = r
        for b in bd.makes.get(n, []):
            self.present.add(b)

    def alloc(self, b):
        """An order's ALLOC: a tensor that exists before the step (a weight,
        the optimizer state, the input) is counted from here; for any other
        the bytes are taken here, as the plan says, in a placeholder of its
        Size that the op's run gives back just before it allocates the
        tensor itself (a workspace: inside the op)."""
        ph = self.bd.maker.get(b)
        if ph in self.pending:
            self.enter(ph)
        elif ph is None or ph.op != "placeholder":     # taken now, as the plan says
            self.hold(b)

    def free(self, b, why):
        if b not in self.present:
            raise PlanError(f"{why}: {self.bd.label(b)} is not present")
        self.reserved.pop(b, None)
        self.keep_final(b)
        self.drop(b)

    def keep_final(self, b):
        ph = self.bd.maker.get(b)
        if ph is not None and ph.op == "placeholder":
            self.final[ph] = self.base[b].detach().cpu().numpy().copy()

    def hold(self, b):
        """Takes buffer b's bytes as the plan says, in a placeholder of its Size (an order's
        ALLOC before its op, a workspace its op gave back before the plan's FREE)."""
        t = torch.empty(self.bd.size[b], dtype=torch.uint8, device=self.device)
        self.reserved[b] = t
        self.live.add(t)
        if b in self.bd.workspaces:
            self.present.add(b)

    def workspace_held(self):
        """The bytes of the workspaces the plan holds."""
        return sum(self.bd.size[b] for b in self.present if b in self.bd.workspaces)

    def offload(self, b, why):
        if b not in self.present:
            raise PlanError(f"{why}: {self.bd.label(b)} is not present")
        if b in self.bd.workspaces:     # its op gave it back: its placeholder goes, nothing to copy
            self.reserved.pop(b, None)
            self.present.discard(b)
            self.host[b] = None
            return
        t = self.base[b]
        self.keep_final(b)              # a weight or state that stays on the host ends as copied
        self.host[b] = host_copy(t, self.device)
        self.drop(b)

    def fetch(self, b, why):
        if b not in self.host:
            raise PlanError(f"{why}: {self.bd.label(b)} was never offloaded")
        if b in self.present:
            raise PlanError(f"{why}: {self.bd.label(b)} is present already")
        if b in self.bd.workspaces:
            self.hold(b)
            return
        copy, dtype, shape, stride, offset = self.host[b]
        whole = torch.empty(len(copy), dtype=dtype, device=self.device)
        whole.copy_(copy if isinstance(copy, torch.Tensor) else torch.from_numpy(copy))
        t = whole.as_strided(shape, stride, offset)
        self.live.add(t)
        n = self.bd.maker[b]
        if n.op == "placeholder" or not isinstance(self.bd.value[n], tuple):
            self.env[n] = t
        else:
            lst = self.env.setdefault(n, [None] * len(self.bd.value[n]))
            lst[self.bd.value[n].index(b)] = t
        self.base[b] = t
        self.present.add(b)

    def finish(self):
        """The values of what is still present (never freed) for the
        comparison; what was never taken in is the step's input as it was."""
        for b in sorted(self.present):
            self.keep_final(b)
        for ph, t in self.pending.items():
            self.final[ph] = t.detach().cpu().numpy().copy()


def host_copy(t, device):
    """Tensor t's whole storage copied to the host: (copy, dtype, shape,
    stride, offset), what fetch makes it again from."""
    whole = whole_storage(t)
    if device.type == "cuda":
        copy = torch.empty(whole.shape, dtype=t.dtype, pin_memory=True)
        copy.copy_(whole)
    else:                                  # outside torch's allocator: leaves what is measured
        copy = whole.numpy().copy()
    return (copy, t.dtype, t.shape, t.stride(), t.storage_offset())


def get_states(device):
    return (torch.get_rng_state(), torch.cuda.get_rng_state(device) if device.type == "cuda" else None)


def set_states(states, device):
    torch.set_rng_state(states[0])
    if states[1] is not None:
        torch.cuda.set_rng_state(states[1], device)


# ------------------------------------------------------------ plans
def order_events(bd, order):
    """An order's steps as events: (kind, x, memtris node Id)."""
    out = []
    for i in order:
        k = bd.kind[i]
        out.append(("alloc" if k == "ALLOC" else "free" if k == "FREE" else "run",
                    bd.buf[i] if k in ("ALLOC", "FREE") else i, i))
    return out


def execute(run, events, on_event=None, budget=False):
    """Runs events [(kind, x, id)] in turn (a budget plan's after what
    exists before the step is present); on_event(k) after each."""
    span = {}                   # a random op run again: its first run's event and its last's
    if budget:
        run.start({x for kind, x, _ in events if kind == "host"})
        if on_event:
            on_event(-1)
        for k, (kind, x, _) in enumerate(events):
            if kind == "run" and x in run.bd.rng_state:
                span[x] = (span.get(x, (k, k))[0], k)
    for k, (kind, x, _) in enumerate(events):
        run.event = k + 1
        why = f"event {k + 1} ({kind} {'Id' if kind == 'run' else 'BufId'} {x})"
        try:
            if kind == "run":
                first, last = span.get(x, (k, k))
                if k == first and last > k:    # its generator state, kept for its reruns
                    run.reserved[("rng", x)] = torch.empty(RNG_STATE_BYTES, dtype=torch.uint8, device=run.device)
                    run.live.add(run.reserved[("rng", x)])     # (no other reference: popped, it goes)
                run.run(x, why)
            elif kind == "alloc":
                run.alloc(x)
            elif kind == "free":
                run.free(x, why)
            elif kind == "offload":
                run.offload(x, why)
            elif kind == "host":            # done at the start
                if x not in run.host:
                    raise PlanError(f"{why}: {run.bd.label(x)} is not present from the start")
            else:
                run.fetch(x, why)
        except RuntimeError as e:      # torch's: out of memory, a kernel's refusal
            raise PlanError(f"{why}{' (' + run.bd.fx[x].name + ')' if kind == 'run' else ''} failed: "
                            f"{graphkit.first_line(e)}")
        if on_event:
            on_event(k)
        if kind == "run" and span.get(x, (k, k))[0] < k == span[x][1]:
            run.reserved.pop(("rng", x), None)      # its last rerun is over: the state goes
    run.finish()


def timed(bd, initial, events, device, rng, record=False, budget=False):
    """One run without measuring on initial() (the step's inputs, fresh):
    (run, seconds, [ms each event])."""
    run = Run(bd, initial(), device, rng, record)
    ms = []
    sync = torch.cuda.synchronize if device.type == "cuda" else (lambda: None)
    last = [time.perf_counter()]

    def tick(k):
        if k < 0:
            return
        sync()
        now = time.perf_counter()
        ms.append(1e3 * (now - last[0]))
        last[0] = now
    sync()
    t0 = last[0] = time.perf_counter()
    with torch.no_grad():
        execute(run, events, tick, budget)
    return run, time.perf_counter() - t0, ms


def measured(bd, initial, events, device, rng, budget=False):
    """One run on initial() measured after every event (a budget plan's also at its
    start, first): (run, {"live": [...], "allocator": [...],
    "allocator_peak": [...]}, and on CUDA "device_used")."""
    out = {"live": [], "allocator": [], "allocator_peak": [], "entered": [], "workspace": []}
    if device.type == "cuda":
        run = Run(bd, initial(), device, rng, measure="cuda")
        return run, measured_cuda(run, events, device, out, budget)
    from torch.profiler import ProfilerActivity, profile
    run = None

    def after(k):
        out["live"].append(run.live.bytes())
        out["entered"].append(run.entered)
        out["workspace"].append(run.workspace_held())
        torch.empty(MARKER_BYTES, dtype=torch.uint8)     # made and dropped: the event's end
    threads = torch.get_num_threads()
    torch.set_num_threads(1)          # one thread: the profiler's record is in the order it happened
    try:
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            # The inputs' copies are made in the profile, so that their frees are in it too.
            run = Run(bd, initial(), device, rng, measure="cpu")
            torch.empty(MARKER_BYTES, dtype=torch.uint8)
            with torch.no_grad():
                execute(run, events, after, budget)
    finally:
        torch.set_num_threads(threads)
    deltas = [e.nbytes() for e in prof.profiler.kineto_results.events() if e.name() == "[memory]"]
    total = k = 0
    while k < len(deltas) and deltas[k] != MARKER_BYTES:     # the inputs' copies
        total += deltas[k]
        k += 1
    made, k = total, k + 2
    ends, top = [], None              # top: the highest reading inside the event so far
    while k < len(deltas):
        if deltas[k] == MARKER_BYTES and k + 1 < len(deltas) and deltas[k + 1] == -MARKER_BYTES:
            ends.append((total, max(total, top) if top is not None else total))
            top = None
            k += 2
            continue
        total += deltas[k]
        if deltas[k] > 0:
            top = total if top is None else max(top, total)
        k += 1
    if len(ends) != len(out["live"]):
        raise RuntimeError(f"the profiler's record holds {len(ends)} event ends, not {len(out['live'])}")
    for (tot, peak), ent in zip(ends, out["entered"]):    # inputs counted from their ALLOC
        out["allocator"].append(tot - made + ent)
        out["allocator_peak"].append(peak - made + ent)
    return run, out


def measured_cuda(run, events, device, out, budget):
    cuda = torch.cuda
    out["device_used"] = []
    cuda.synchronize(device)
    start = cuda.memory_allocated(device)
    free0, total0 = cuda.mem_get_info(device)
    used0 = total0 - free0

    level = [start]

    def after(k):
        cuda.synchronize(device)
        out["live"].append(run.live.bytes())
        out["entered"].append(run.entered)
        out["workspace"].append(run.workspace_held())
        now, top = cuda.memory_allocated(device), cuda.max_memory_allocated(device)
        out["allocator"].append(now - start + run.entered)
        # The highest reading inside the event: above where it started, else where it ended.
        out["allocator_peak"].append((top if top > level[0] else now) - start + run.entered)
        free, total = cuda.mem_get_info(device)
        out["device_used"].append(total - free - used0 + run.entered)
        level[0] = now
        cuda.reset_peak_memory_stats(device)
    cuda.reset_peak_memory_stats(device)
    with torch.no_grad():
        execute(run, events, after, budget)
    return out
