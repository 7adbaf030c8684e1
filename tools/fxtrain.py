"""fxtrain.py: fx2memtris.py's make_fx half. It exports the joint graph of one
training step (--train: forward, loss, backward, optimizer update) and the
forward of models torch.fx's symbolic trace cannot follow (shufflenet_v2,
vit_b_16), both from the aten graph torch.fx.experimental.proxy_tensor.make_fx
records with tracing_mode='fake' (no real compute), and measures a real step's
peak under torch.profiler (--measure).

The step, written functionally so that make_fx sees all of it:
    loss = LOSS(functional_call(model, params | buffers, x)[, y])
    grads = torch.autograd.grad(loss, params)
    OPTIMIZER update in place under no_grad, as torch.optim's single-tensor
    code does it: sgd  p -= lr*g; momentum  buf = m*buf + g, p -= lr*buf;
    adam  m1 = b1*m1 + (1-b1)g, m2 = b2*m2 + (1-b2)g^2,
          p -= lr/bc1 * m1 / (sqrt(m2)/sqrt(bc2) + eps)
The model is in train mode (BatchNorm updates its running stats in place,
Dropout draws its masks).

The memtris graph, per aten op in the recorded (execution) order:
- a result whose schema return carries alias information (views: t, view,
  expand, permute, detach, alias, ...; in-place and out= ops: add_, ...)
  aliases the argument it names and allocates nothing; an argument the schema
  marks written (Tensor(a!)) is written, the op waiting for its earlier readers;
- every other tensor result gets an ALLOC just before the op (bytes = elements
  x element size, floating tensors at --dtype); getitem of a tuple is that
  element, no node of its own;
- every buffer's FREE comes just after the last node that touches it, through
  any alias, so that ascending Id is PyTorch's order (memtris's policy given);
  weights, buffers and optimizer state are allocated before the Input node and
  freed after the final Output node, which reads the loss (or, forward only,
  the results) and waits for every update: live all step in any order.
Category on every ALLOC: input (x, y), weight (parameters and module buffers),
optimizer (momentum and Adam state), gradient (a parameter's gradient, kept
until the update has used it), activation (made in the forward), output (the
loss; forward only: the results), workspace (anything else made in the backward
or the update: gradients of activations, the update's temporaries). Phase on
every compute node: forward up to the loss, backward up to the last parameter
gradient, optimizer after. --latency flops: aten_flops; --latency measure (with
--train): set_measured_latency, each aten op's median CPU time.
"""
import operator
import time

import torch
from torch.fx.experimental.proxy_tensor import make_fx
from torch.nn.utils.stateless import functional_call

import graphkit

LOSSES = ("sum", "cross-entropy")
OPTIMIZERS = ("sgd", "momentum", "adam")
LR, MOMENTUM, BETAS, EPS = 0.01, 0.9, (0.9, 0.999), 1e-8
MEASURE_HOW = ("torch.profiler CPU, profile_memory: bytes live at the step's start (weights, buffers, "
               "optimizer state, inputs) + the highest running total of the step's allocations")


# Ops that write arguments their schema does not mark written (Tensor(a!)), in
# torch 1.13: native_batch_norm in training mode (argument 5) updates its
# running_mean and running_var (arguments 3 and 4) in place. The graph says so
# (InPlace), so that no budget plan runs it twice: tools/runplan.py found the
# running statistics updated twice by a plan that did.
UNANNOTATED_WRITES = {"aten::native_batch_norm": lambda n: (3, 4) if len(n.args) > 5 and n.args[5] else ()}
# Ops whose result shares its first argument's storage though their schema
# gives it no alias annotation: _unsafe_view (what autograd's reshape of a
# temporary records) is a view. tools/runplan.py measured the transformer's
# attention 0.5 MiB below the graph until the graph said so.
UNANNOTATED_ALIASES = {"aten::_unsafe_view"}


class TrainError(Exception):
    pass


# ---------------------------------------------------------------- the step
def state_names(optimizer):
    return {"sgd": [], "momentum": ["momentum"], "adam": ["exp_avg", "exp_avg_sq"]}[optimizer]


def make_step(model, optimizer, loss, n_params, n_buffers, keep_grads):
    """The training step as a function of flat tensors: params, buffers,
    optimizer state (per parameter, state_names order), x[, y]. Returns
    (loss, *grads) with keep_grads (to trace: the grads name the gradient
    nodes), else (loss,), each gradient freed after its update (to run)."""
    pnames = [n for n, _ in model.named_parameters()]
    bnames = [n for n, _ in model.named_buffers()]
    k = len(state_names(optimizer))

    def step(*flat):
        ps = flat[:n_params]
        bs = flat[n_params:n_params + n_buffers]
        st = flat[n_params + n_buffers:n_params + n_buffers + k * n_params]
        x = flat[n_params + n_buffers + k * n_params]
        args = {**dict(zip(pnames, ps)), **dict(zip(bnames, bs))}
        if loss == "sum":
            value = functional_call(model, args, (x,)).sum()
        else:
            y = flat[-1]
            value = torch.nn.functional.cross_entropy(functional_call(model, args, (x,)), y)
        grads = list(torch.autograd.grad(value, ps))
        traced = tuple(grads) if keep_grads else ()
        with torch.no_grad():
            for i, p in enumerate(ps):
                g, grads[i] = grads[i], None       # each gradient dies with its update
                if optimizer == "sgd":
                    p.add_(g, alpha=-LR)
                    del g
                elif optimizer == "momentum":
                    buf = st[i]
                    buf.mul_(MOMENTUM).add_(g)
                    del g
                    p.add_(buf, alpha=-LR)
                else:
                    m1, m2 = st[2 * i], st[2 * i + 1]
                    b1, b2 = BETAS
                    m1.mul_(b1).add_(g, alpha=1 - b1)
                    m2.mul_(b2).addcmul_(g, g, value=1 - b2)
                    del g              # after its last use, as the graph frees it
                    denom = (m2.sqrt() / (1 - b2) ** 0.5).add_(EPS)
                    p.addcdiv_(m1, denom, value=-LR / (1 - b1))
                    del denom          # not alive into the next parameter's update
        return (value,) + traced
    return step


def step_inputs(model, optimizer, loss, shape, classes):
    """The flat real inputs of make_step's step and their roles."""
    params = [p.detach().clone().requires_grad_(True) for p in model.parameters()]
    buffers = [b.detach().clone() for b in model.buffers()]
    state = [torch.zeros_like(p) for p in params for _ in state_names(optimizer)]
    x = torch.randn(*shape)
    flat = params + buffers + state + [x]
    roles = ["weight"] * (len(params) + len(buffers)) + ["optimizer"] * len(state) + ["input"]
    names = ([f"param.{n}" for n, _ in model.named_parameters()] +
             [f"param.{n}" for n, _ in model.named_buffers()] +
             [f"{s}.{n}" for n, _ in model.named_parameters() for s in state_names(optimizer)] + ["input"])
    if loss == "cross-entropy":
        flat.append(torch.randint(0, classes, (shape[0],)))
        roles.append("input")
        names.append("label")
    return flat, roles, names


def trace_train(model, shape, optimizer, loss, classes):
    model.train()
    flat, roles, names = step_inputs(model, optimizer, loss, shape, classes)
    n_params, n_buffers = len(list(model.parameters())), len(list(model.buffers()))
    step = make_step(model, optimizer, loss, n_params, n_buffers, True)
    try:
        gm = make_fx(step, tracing_mode="fake")(*flat)
    except Exception as e:
        raise TrainError(f"make_fx cannot trace a training step of {type(model).__name__}: {first_line(e)}")
    return gm, flat, roles, names, n_params


first_line = graphkit.first_line


# ---------------------------------------------------------------- values
def fake_values(gm, flat):
    """{fx node: its value} with fake tensors: every result of every op,
    tuples included (make_fx keeps no metadata on tuples)."""
    from torch._subclasses.fake_tensor import FakeTensorMode
    mode = FakeTensorMode()
    fakes = [mode.from_tensor(t.detach()) for t in flat]
    values = {}

    class Recorder(torch.fx.Interpreter):
        def run_node(self, n):
            r = super().run_node(n)
            values[n] = r
            return r
    with mode, torch.no_grad():
        Recorder(gm).run(*fakes)
    return values


def tensor_bytes(t, dtype):
    elem = (torch.empty((), dtype=dtype) if t.dtype.is_floating_point
            else torch.empty((), dtype=t.dtype)).element_size()
    return t.numel() * elem


# ---------------------------------------------------------------- the walk
class AtenExporter(graphkit.Emitter):
    def __init__(self, gm, values, dtype, kit):
        super().__init__()
        self.gm, self.values, self.dtype, self.kit = gm, values, dtype, kit
        self.touch, self.writer, self.readers = {}, {}, {}
        self.buf_name, self.category, self.alloc_of = {}, {}, {}
        self.value, self.producer = {}, {}
        self.persistent = set()
        self.compute_of = {}
        self.maker = {}          # buffer -> the fx node that makes it (a placeholder or an op)

    def new_buffer(self, t, name, deps, category):
        size = tensor_bytes(t, self.dtype)
        if size > self.kit.MAX_SIZE:
            raise TrainError(f"op {name}: a tensor of {size} bytes, more than memtris's largest Size, 2^53-1")
        b = len(self.buf_name) + 1
        self.buf_name[b], self.category[b] = name, category
        a = self.node(Op="ALLOC", Size=size, BufId=b, Name=f"{name}.out", Category=category)
        self.alloc_of[b] = a
        for d in deps:
            self.edge(d, a)
        self.touch[b], self.readers[b], self.writer[b] = [a], [], a
        return b, a

    def read(self, c, bufs):
        for b in bufs:
            self.touch[b].append(c)
            self.readers[b].append(c)

    def write(self, c, b):
        for r in self.readers[b]:
            self.edge(r, c)
        self.touch[b].append(c)
        self.writer[b], self.readers[b] = c, []

    def bufs_of(self, n):
        v = self.value.get(n)
        if v is None:
            return []
        return [x for x in v if x is not None] if isinstance(v, tuple) else [v]

    def run(self, roles, names, phase_of, output_filter, grad_filter=lambda k: False):
        for n in self.gm.graph.nodes:
            if n.op == "placeholder":
                i = len(self.value)
                self.placeholder(n, roles[i], names[i])
            elif n.op == "output":
                self.output(n, output_filter, grad_filter, phase_of(n))
            elif n.target is operator.getitem:
                src = self.value.get(n.args[0])
                self.value[n] = src[n.args[1]] if isinstance(src, tuple) else None
                self.producer[n] = self.producer.get(n.args[0])
            else:
                self.call(n, phase_of(n))
        return {"Nodes": self.nodes, "Edges": self.edges}

    def placeholder(self, n, role, name):
        v = self.values[n]
        if not isinstance(v, torch.Tensor):
            self.value[n] = None
            return
        b, a = self.new_buffer(v, name, [], role)
        self.maker[b] = n
        if role == "input":
            c = self.node(Op="Input", Name=name, Trace=n.name, Inputs=[b], Phase="forward")
            self.edge(a, c)
            for p in self.persistent:        # weights and state exist before the step starts
                self.edge(self.alloc_of[p], c)
            self.write(c, b)
            self.producer[n] = c
        else:
            self.persistent.add(b)
        self.value[n] = b

    def call(self, n, phase):
        ins = []
        torch.fx.node.map_arg((n.args, n.kwargs), ins.append)
        in_bufs = list(dict.fromkeys(b for i in ins for b in self.bufs_of(i)))
        deps = [self.producer[i] for i in ins if self.producer.get(i) is not None]
        deps += [self.writer[b] for b in in_bufs]
        deps = list(dict.fromkeys(d for d in deps if d is not None))
        schema = getattr(n.target, "_schema", None)
        result = self.values.get(n)
        outs = list(result) if isinstance(result, (tuple, list)) else [result]
        # Arguments by schema position, to follow alias annotations.
        written, alias_src = [], {}
        if schema is not None:
            argvals = {}
            for k, a in enumerate(schema.arguments):
                if k < len(n.args):
                    argvals[a.name] = n.args[k]
                elif a.name in n.kwargs:
                    argvals[a.name] = n.kwargs[a.name]
            sets = {}
            for a in schema.arguments:
                v = argvals.get(a.name)
                if a.alias_info is not None and isinstance(v, torch.fx.Node):
                    bs = self.bufs_of(v)
                    if len(bs) == 1:
                        for s in a.alias_info.before_set:
                            sets[s] = bs[0]
                        if a.alias_info.is_write:
                            written.append(bs[0])
            for k, r in enumerate(schema.returns):
                if r.alias_info is not None:
                    for s in r.alias_info.before_set:
                        if s in sets:
                            alias_src[k] = sets[s]
            for k in UNANNOTATED_WRITES.get(schema.name, lambda n: ())(n):
                bs = self.bufs_of(n.args[k]) if isinstance(n.args[k], torch.fx.Node) else []
                if len(bs) == 1:
                    written.append(bs[0])
            if schema.name in UNANNOTATED_ALIASES:
                bs = self.bufs_of(n.args[0]) if isinstance(n.args[0], torch.fx.Node) else []
                if len(bs) == 1:
                    alias_src[0] = bs[0]
        made = []
        out_bufs = []
        for k, t in enumerate(outs):
            if not isinstance(t, torch.Tensor):
                out_bufs.append(None)
            elif k in alias_src:
                out_bufs.append(alias_src[k])
            else:
                cat = "activation" if phase == "forward" else "workspace"
                b, a = self.new_buffer(t, n.name if len(outs) == 1 else f"{n.name}.{k}", deps, cat)
                self.maker[b] = n
                made.append((b, a))
                out_bufs.append(b)
        aliased = [b for b in out_bufs if b is not None and b not in [m for m, _ in made]]
        inputs = list(dict.fromkeys(in_bufs + aliased + [b for b, _ in made]))
        changed = [b for b in dict.fromkeys(written) if b in inputs and b not in [m for m, _ in made]]
        extra = {"InPlace": changed} if changed else {}
        c = self.node(Op=self.op_word(n), Name=n.name, Trace=n.name, Inputs=inputs, Phase=phase, **extra)
        self.compute_of[n] = c
        for d in deps:
            self.edge(d, c)
        for _, a in made:
            self.edge(a, c)
        written = list(dict.fromkeys(written))
        self.read(c, [b for b in in_bufs + aliased if b not in written])
        for b in written:
            self.write(c, b)
        for b, _ in made:
            self.write(c, b)
        if isinstance(result, (tuple, list)):
            self.value[n] = tuple(out_bufs)
        else:
            self.value[n] = out_bufs[0]
        self.producer[n] = c

    def op_word(self, n):
        t = n.target
        name = getattr(t, "__name__", None) or str(t)
        return name.split(".")[0] if "." in name else name

    def output(self, n, output_filter, grad_filter, phase):
        ins = []
        torch.fx.node.map_arg(n.args, ins.append)
        for i in [i for k, i in enumerate(ins) if grad_filter(k)]:
            for b in self.bufs_of(i):
                if self.category[b] in ("workspace", "activation"):
                    self.set_category(b, "gradient")
        keep = [i for k, i in enumerate(ins) if output_filter(k)]
        bufs = list(dict.fromkeys(b for i in keep for b in self.bufs_of(i)))
        for b in bufs:
            if self.category[b] in ("activation", "workspace"):
                self.set_category(b, "output")
        c = self.node(Op="Output", Name="output", Trace=n.name, Inputs=bufs, Phase=phase)
        for i in keep:
            if self.producer.get(i) is not None:
                self.edge(self.producer[i], c)
        for b in bufs:
            self.edge(self.writer[b], c)
        for b in self.persistent:            # and last until every update is done
            for t in dict.fromkeys(self.touch[b]):
                self.edge(t, c)
        self.read(c, bufs)
        for b in sorted(self.touch):
            f = self.node(Op="FREE", BufId=b, Name=f"free {self.buf_name[b]}")
            for t in dict.fromkeys(self.touch[b]):
                self.edge(t, f)
            if b in self.persistent:
                self.edge(c, f)

    def set_category(self, b, cat):
        self.category[b] = cat
        self.nodes[self.alloc_of[b]]["Category"] = cat


def execution_order(graph):
    """Renumbers a graph whose FREEs all come at the end: each FREE moves to
    just after the last node it depends on, so that ascending Id is the
    order the nodes were recorded in with every buffer freed as soon as it
    can be. Edges follow the new Ids."""
    nodes = graph["Nodes"]
    preds = {}
    for u, v in graph["Edges"]:
        preds.setdefault(v, []).append(u)
    after = {}
    rest = []
    for nd in nodes:
        if nd["Op"] == "FREE":
            last = max(preds.get(nd["Id"], [-1]))
            after.setdefault(last, []).append(nd)
        else:
            rest.append(nd)
    order = list(after.get(-1, []))
    for nd in rest:
        order.append(nd)
        order.extend(after.get(nd["Id"], []))
    new = {nd["Id"]: k for k, nd in enumerate(order)}
    for nd in order:
        nd["Id"] = new[nd["Id"]]
    graph["Nodes"] = order
    graph["Edges"] = [list(e) for e in sorted({(new[u], new[v]) for u, v in graph["Edges"]})]
    return graph


def phases(gm, n_params):
    """{fx node: phase}: forward up to the loss, backward up to the last
    parameter gradient, optimizer after (the recorded order is the run's)."""
    order = list(gm.graph.nodes)
    pos = {n: k for k, n in enumerate(order)}
    out = order[-1].args[0]
    loss_at = pos[out[0]]
    grad_at = max(pos[g] for g in out[1:1 + n_params]) if n_params else loss_at
    return lambda n: "forward" if pos[n] <= loss_at else "backward" if pos[n] <= grad_at else "optimizer"


def export_train(model, shape, dtype, kit, optimizer="sgd", loss="sum", classes=None, flops=False,
                 timing=None, workspace=False):
    """The step's graph, its exporter and trace; workspace: each op's
    temporary memory measured and added (tools/workspaces.py)."""
    if optimizer not in OPTIMIZERS:
        raise TrainError(f"--optimizer must be one of {', '.join(OPTIMIZERS)}, not '{optimizer}'")
    if loss not in LOSSES:
        raise TrainError(f"--loss must be one of {', '.join(LOSSES)}, not '{loss}'")
    if loss == "cross-entropy" and classes is None:
        classes = output_classes(model, shape)
    gm, flat, roles, names, n_params = trace_train(model, shape, optimizer, loss, classes)
    graph, ex = export_traced(gm, flat, roles, names, n_params, dtype, kit, flops, timing)
    if workspace:
        import workspaces
        workspaces.add(graph, workspaces.measure(gm, ex, graph, flat))
    return graph, ex, gm


def export_traced(gm, flat, roles, names, n_params, dtype, kit, flops=False, timing=None):
    """The memtris graph of a step trace_train recorded, and its exporter
    (which fx node makes and touches which buffer: tools/runplan.py binds
    a plan to the trace through it)."""
    values = fake_values(gm, flat)
    ex = AtenExporter(gm, values, dtype, kit)
    graph = ex.run(roles, names, phases(gm, n_params), lambda k: k == 0, lambda k: 1 <= k <= n_params)
    if flops:
        set_flops_latency(graph, ex, kit)
    if timing:
        set_measured_latency(graph, ex, gm, flat, kit, *timing)
    return execution_order(graph), ex


def output_classes(model, shape):
    with torch.no_grad():
        y = model.eval()(torch.randn(*shape))
    return int(y.shape[-1])


def export_forward(model, shape, dtype, params, kit, flops=False, timing=None):
    """Forward only through make_fx (symbolic_trace's fallback); timing:
    (repeats, threads) for --latency measure."""
    model.eval()
    ps = [p.detach() for p in model.parameters()] + [b.detach() for b in model.buffers()]
    pn = [n for n, _ in model.named_parameters()] + [n for n, _ in model.named_buffers()]
    x = torch.randn(*shape)

    def fwd(*flat):
        with torch.no_grad():
            return functional_call(model, dict(zip(pn, flat[:-1])), (flat[-1],))
    try:
        gm = make_fx(fwd, tracing_mode="fake")(*ps, x)
    except Exception as e:
        raise TrainError(f"make_fx cannot trace {type(model).__name__} either: {first_line(e)}")
    values = fake_values(gm, ps + [x])
    ex = AtenExporter(gm, values, dtype, kit)
    roles = ["weight"] * len(ps) + ["input"]
    names = [f"param.{n}" for n in pn] + ["input"]
    graph = ex.run(roles, names, lambda n: "forward", lambda k: True)
    if flops:
        set_flops_latency(graph, ex, kit)
    if timing:
        set_measured_latency(graph, ex, gm, ps + [x], kit, *timing)
    if not params:
        drop_weights(graph, ex)
    return execution_order(graph), ex, gm


def drop_weights(graph, ex):
    """Forward mode without --params: the weights' ALLOCs and FREEs go, and
    the compute nodes stop naming them."""
    gone = {b for b in ex.persistent if ex.category[b] == "weight"}
    keep = [nd for nd in graph["Nodes"] if nd.get("BufId") not in gone]
    ids = {nd["Id"] for nd in keep}
    for nd in keep:
        if "Inputs" in nd:
            nd["Inputs"] = [b for b in nd["Inputs"] if b not in gone]
    graph["Nodes"] = keep
    graph["Edges"] = [e for e in graph["Edges"] if e[0] in ids and e[1] in ids]
    new = {nd["Id"]: k for k, nd in enumerate(keep)}
    for nd in keep:
        nd["Id"] = new[nd["Id"]]
    graph["Edges"] = [[new[u], new[v]] for u, v in graph["Edges"]]


# ---------------------------------------------------------------- flops
def _numel(v):
    if isinstance(v, torch.Tensor):
        return v.numel()
    if isinstance(v, (tuple, list)):
        return sum(_numel(x) for x in v)
    return 0


def aten_flops(n, values):
    """--latency flops on an aten op, graphkit.op_flops's estimate (the one
    fx2memtris.py and onnx2memtris.py use): convolution 2*out*k, k the
    elements of weight[0] (Cin/groups*kh*kw; a transposed convolution is
    counted so too, with its weight[0] of Cout/groups*kh*kw, not as
    "conv_transpose"), its backward twice that (input and weight gradients),
    mm/bmm/addmm/baddbmm 2*M*N*K, aliases 0, every other op the elements it
    reads and writes."""
    schema = getattr(n.target, "_schema", None)
    if schema is None or any(r.alias_info is not None for r in schema.returns):
        return graphkit.op_flops("none")
    name = schema.name.split("::")[-1]
    args = [values.get(a) if isinstance(a, torch.fx.Node) else None for a in n.args]
    out = _numel(values.get(n))
    if name == "convolution" and isinstance(args[1], torch.Tensor):
        return graphkit.op_flops("conv", out=out, k=args[1][0].numel())
    if name == "convolution_backward" and isinstance(args[0], torch.Tensor) and isinstance(args[2], torch.Tensor):
        return graphkit.op_flops("conv_backward", src=args[0].numel(), k=args[2][0].numel())
    if name in ("mm", "bmm") and isinstance(args[0], torch.Tensor):
        return graphkit.op_flops("matmul", out=out, k=args[0].shape[-1])
    if name in ("addmm", "baddbmm") and isinstance(args[1], torch.Tensor):
        return graphkit.op_flops("matmul", out=out, k=args[1].shape[-1])
    return graphkit.op_flops("other", out=out, reads=sum(_numel(a) for a in args))


def set_flops_latency(graph, ex, kit):
    for nd in graph["Nodes"]:
        if nd["Op"] not in ("ALLOC", "FREE"):
            nd["Latency"] = 0.0                     # Input and Output
    for n, c in ex.compute_of.items():
        graph["Nodes"][c]["Latency"] = kit.round_sig(kit.flops_ms(aten_flops(n, ex.values)))


def set_measured_latency(graph, ex, gm, flat, kit, repeats=5, threads=1):
    """--latency measure: runs the aten graph on real tensors (copies, as the
    update writes them) on the CPU, one warm-up and `repeats` timed runs on
    `threads` threads; each compute node gets its op's median time in ms,
    Input and Output 0."""
    times = {}

    class Timer(torch.fx.Interpreter):
        record = False

        def run_node(self, n):
            t0 = time.perf_counter()
            r = super().run_node(n)
            if self.record:
                times.setdefault(n, []).append(time.perf_counter() - t0)
            return r
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        with torch.no_grad():
            for k in range(repeats + 1):
                t = Timer(gm)
                t.record = k > 0
                t.run(*[x.detach().clone() for x in flat])
    finally:
        torch.set_num_threads(before)
    for nd in graph["Nodes"]:
        if nd["Op"] not in ("ALLOC", "FREE"):
            nd["Latency"] = 0.0
    for n, c in ex.compute_of.items():
        graph["Nodes"][c]["Latency"] = kit.round_sig(1e3 * sorted(times[n])[len(times[n]) // 2])


# ---------------------------------------------------------------- measuring
def measure_peak(model, shape, optimizer, loss, classes, threads=1):
    """The real step's peak on the CPU, in bytes, comparable to the exported
    graph's: the bytes of every tensor live when the step starts (weights,
    module buffers, optimizer state, x, y) plus the highest running total of
    the allocations and frees torch.profiler records during the step."""
    model.train()
    if loss == "cross-entropy" and classes is None:
        classes = output_classes(model, shape)
        model.train()
    flat, roles, names = step_inputs(model, optimizer, loss, shape, classes)
    n_params, n_buffers = len(list(model.parameters())), len(list(model.buffers()))
    step = make_step(model, optimizer, loss, n_params, n_buffers, False)
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        base = sum(t.numel() * t.element_size() for t in flat)
        from torch.profiler import ProfilerActivity, profile
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            step(*flat)
    finally:
        torch.set_num_threads(before)
    events = sorted(((e.start_us(), e.nbytes()) for e in prof.profiler.kineto_results.events()
                     if e.name() == "[memory]"), key=lambda e: e[0])
    run = top = 0
    for _, d in events:
        run += d
        top = max(top, run)
    return base + top
