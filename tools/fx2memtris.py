#!/usr/bin/python3
"""fx2memtris.py: exports a PyTorch nn.Module to memtris's JSON graph format, by
torch.fx symbolic tracing and shape propagation.

Usage: fx2memtris.py MODEL [--input-shape C,H,W] [--batch N] [--dtype float32]
                     [--params] [--latency none|measure|flops] [--repeats N]
                     [--threads N] [--streams N] [-o FILE]
       fx2memtris.py MODEL --train [--loss sum|cross-entropy]
                     [--optimizer sgd|momentum|adam] [--seed S] [--measure] [...]
--train exports one training step through make_fx, and symbolic tracing
falls back to make_fx where it fails: tools/fxtrain.py says how.
MODEL is a torchvision model name (resnet50, mobilenet_v2, ...) or
module.path:ClassOrFactory (called with no arguments). Run it with Debian's
/usr/bin/python3 (python3-torch, python3-torchvision).

The graph, per traced op:
- an op that makes new tensors gets one ALLOC per output tensor (bytes =
  elements x element size, floating tensors at --dtype), then a compute node
  (Op = module class or function name, Name = the fx node's name, Inputs = the
  buffers it reads and writes); the ALLOC depends on the producers of the op's
  inputs, so it becomes ready exactly when the op could run;
- an op that aliases its input's storage allocates nothing: view, reshape or
  contiguous of a contiguous tensor, flatten, squeeze/unsqueeze, transpose,
  permute, expand, t, narrow, select, split/chunk/unbind, indexing, getitem of a
  tuple, detach, Identity, Dropout in eval mode, and in-place ops (ReLU(inplace=
  True), add_, ...). It becomes a compute node reading (or writing) the source
  buffer, whose life it extends; an in-place op also waits for the buffer's
  earlier readers;
- every buffer gets a FREE after the last node that touches it, through any
  alias; the network's input is an ALLOC and an "Input" node at the start, and
  its outputs are read by a final "Output" node and freed after it;
- parameters and module buffers are left out unless --params is given; then
  each is an ALLOC at the start, read by the ops that use it, freed after Output.
Shapes are propagated in float32 on the CPU; --dtype sets the element size of
floating tensors (integer and bool tensors keep theirs).

Time (memtris's "Latency", in ms, and "Stream"; ALLOC and FREE get neither):
- --latency none (the default) writes no Latency;
- --latency measure runs the model on the CPU under a torch.fx Interpreter,
  one warm-up run and then --repeats runs (default 5) on --threads threads
  (default 1, for steady figures), timing each node's run_node with
  time.perf_counter, and writes each compute node's median time. Aliases,
  Input and Output get their measured time too (microseconds or less);
- --latency flops estimates from shapes, by graphkit.op_flops (the estimate
  onnx2memtris.py and --train share): conv 2*N*Cout*Hout*Wout*(Cin/groups)
  *kh*kw (transposed conv: 2*N*Cin*Hin*Win*(Cout/groups)*kh*kw), linear,
  matmul, mm, bmm, addmm, baddbmm 2*M*N*K, every other op the elements it
  reads and writes (elementwise, pool, norm, activation, cat, copies), and
  aliases, getitem, Input and Output 0; converted at a constant
  graphkit.FLOPS_PER_SECOND (50 GFLOP/s, one element counted as one
  operation): only the ratios between ops mean something.
Both round to 4 significant digits.
- data-movement ops (graphkit.DATA_MOVEMENT_OPS: to, cpu, cuda, copy_,
  pin_memory; not contiguous or clone, which are kernels like any other) get
  "Stream": 1, a copy engine's, whatever --streams says;
- --streams N (default 1) above 1 spreads every compute node over streams
  0..N-1 by graphkit.assign_streams's fork rule (a chain keeps its stream,
  the side branch of a fork takes the next side stream, a join goes back to
  the oldest line), as tools/assign_streams.py does to any graph.
"""
import argparse
import contextlib
import importlib
import io
import math
import operator
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graphkit  # noqa: E402

try:
    import torch
    import torch.fx
    from torch.fx.passes.shape_prop import ShapeProp, TensorMetadata
except ImportError as e:   # pragma: no cover - reported to the user
    sys.exit(f"fx2memtris: cannot import torch ({e}); install python3-torch and run with /usr/bin/python3")
import fxtrain  # noqa: E402

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16,
          "float64": torch.float64}

ALIAS_METHODS = {"view", "view_as", "reshape", "reshape_as", "flatten", "unflatten", "squeeze", "unsqueeze",
                 "transpose", "permute", "expand", "expand_as", "t", "narrow", "select", "split", "chunk",
                 "unbind", "detach", "contiguous", "__getitem__", "as_strided", "movedim", "swapaxes"}
ALIAS_FUNCTIONS = {torch.flatten, torch.reshape, torch.squeeze, torch.unsqueeze, torch.transpose,
                   torch.permute, torch.t, torch.narrow, torch.select, torch.split, torch.chunk, torch.unbind,
                   torch.detach, torch.movedim, operator.getitem}
ALIAS_MODULES = (torch.nn.Flatten, torch.nn.Unflatten, torch.nn.Identity, torch.nn.Dropout,
                 torch.nn.Dropout2d, torch.nn.Dropout3d, torch.nn.AlphaDropout)
# Aliases only when their input is contiguous (else they copy).
COPY_UNLESS_CONTIGUOUS = {"reshape", "reshape_as", "contiguous", torch.reshape}
INPLACE_FUNCTIONS = {operator.iadd, operator.isub, operator.imul, operator.itruediv}
FLOPS_PER_SECOND = graphkit.FLOPS_PER_SECOND
# --threads: torch.set_num_threads takes an int; more than this is a mistake.
MAX_THREADS = 1024
LATENCY_MODES = ("none", "measure", "flops")
MATMUL_FUNCTIONS = {torch.matmul, operator.matmul, torch.mm, torch.bmm, torch.nn.functional.linear}
MATMUL_METHODS = {"matmul", "mm", "bmm"}
ADDMM = {torch.addmm, torch.baddbmm, "addmm", "baddbmm"}
CONV_FUNCTIONS = {torch.nn.functional.conv1d, torch.nn.functional.conv2d, torch.nn.functional.conv3d}


class ExportError(Exception):
    pass


first_line = graphkit.first_line


class _ShapeProp(ShapeProp):
    """ShapeProp that keeps the node it runs (at): a failure names it."""
    at = None

    def run_node(self, n):
        self.at = n
        return super().run_node(n)


def load_model(spec):
    if ":" in spec:
        mod_name, attr = spec.split(":", 1)
        try:
            obj = getattr(importlib.import_module(mod_name), attr)
        except Exception as e:   # the module's own code may raise anything
            raise ExportError(f"cannot load {spec}: {first_line(e)}")
    else:
        try:
            import torchvision
        except Exception as e:
            raise ExportError(f"cannot import torchvision for '{spec}' ({first_line(e)}); install "
                              "python3-torchvision, or name a module.path:ClassOrFactory")
        obj = getattr(torchvision.models, spec, None)
        if obj is None or not callable(obj):
            raise ExportError(f"'{spec}' is not a torchvision model name (e.g. resnet50) nor module:Factory")
    try:
        model = obj() if callable(obj) else obj
    except Exception as e:
        raise ExportError(f"making {spec} failed: {first_line(e)}")
    if not isinstance(model, torch.nn.Module):
        raise ExportError(f"{spec} did not give a torch.nn.Module (got {type(model).__name__})")
    return model.eval()


def op_name(gm, node):
    if node.op == "call_module":
        return type(gm.get_submodule(node.target)).__name__
    if node.op == "call_method":
        return node.target
    t = node.target
    return getattr(t, "__name__", str(t)).lstrip("_") or str(t)


def is_contiguous(meta):
    return isinstance(meta, TensorMetadata) and meta.memory_format == torch.contiguous_format


class Exporter(graphkit.Emitter):
    def __init__(self, gm, dtype, params):
        super().__init__()
        self.gm, self.dtype, self.with_params = gm, dtype, params
        self.buf_size, self.buf_name = {}, {}
        self.touch = {}          # buffer -> nodes that touched it (for its FREE)
        self.writer = {}         # buffer -> last node that wrote it
        self.readers = {}        # buffer -> readers since the last write
        self.value = {}          # fx node -> buffer, or tuple of buffers, or None
        self.producer = {}       # fx node -> memtris node whose result it is
        self.param_buf = {}      # parameter/buffer name -> buffer
        self.compute_of = {}     # fx node -> the memtris compute node that is its op

    # ------------------------------------------------------------ emitting
    def new_buffer(self, meta, name, deps):
        if not isinstance(meta, TensorMetadata):
            raise ExportError(f"op {name} produces a value without tensor metadata; cannot size it")
        numel = 1
        for d in meta.shape:
            numel *= int(d)
        elem = (torch.empty((), dtype=self.dtype) if meta.dtype.is_floating_point
                else torch.empty((), dtype=meta.dtype)).element_size()
        if numel * elem > graphkit.MAX_SIZE:
            raise ExportError(f"op {name}: its tensor of shape {list(meta.shape)} is {numel * elem} bytes, more "
                              f"than memtris's largest Size, 2^53-1 ({graphkit.MAX_SIZE})")
        b = len(self.buf_size) + 1
        self.buf_size[b] = numel * elem
        self.buf_name[b] = name
        a = self.node(Op="ALLOC", Size=numel * elem, BufId=b, Name=f"{name}.out")
        for d in deps:
            self.edge(d, a)
        self.touch[b], self.readers[b] = [a], []
        self.writer[b] = a
        return b, a

    # ------------------------------------------------------------ values
    def buffers_of(self, fx_node):
        v = self.value.get(fx_node)
        if v is None:
            return []
        return list(v) if isinstance(v, tuple) else [v]

    def fx_inputs(self, node):
        found = []
        torch.fx.node.map_arg((node.args, node.kwargs), lambda n: found.append(n))
        return [n for n in found if n.op != "get_attr" or self.with_params]

    def deps_of(self, inputs):
        deps = []
        for i in inputs:
            if i in self.producer:
                deps.append(self.producer[i])
            for b in self.buffers_of(i):
                deps.append(self.writer[b])
        return list(dict.fromkeys(d for d in deps if d is not None))

    def read(self, node_id, bufs):
        for b in bufs:
            self.touch[b].append(node_id)
            self.readers[b].append(node_id)

    def write(self, node_id, b):
        for r in self.readers[b]:
            self.edge(r, node_id)          # wait for earlier readers (write after read)
        self.touch[b].append(node_id)
        self.writer[b], self.readers[b] = node_id, []

    # ------------------------------------------------------------ kinds of op
    def is_alias(self, node):
        t = node.target
        if node.op == "call_module":
            return isinstance(self.gm.get_submodule(t), ALIAS_MODULES)
        if node.op == "call_method" and t in ALIAS_METHODS or node.op == "call_function" and t in ALIAS_FUNCTIONS:
            if t in COPY_UNLESS_CONTIGUOUS:
                src = node.args[0] if node.args else None
                return isinstance(src, torch.fx.Node) and is_contiguous(src.meta.get("tensor_meta"))
            if t is torch.nn.functional.dropout:
                return True
            return True
        if node.op == "call_function" and t is torch.nn.functional.dropout:
            return not node.kwargs.get("training", False)
        return False

    def is_inplace(self, node):
        t = node.target
        if node.op == "call_module":
            return bool(getattr(self.gm.get_submodule(t), "inplace", False)) and not self.is_alias(node)
        if node.op == "call_method":
            return t.endswith("_") and not t.startswith("_")
        if node.op == "call_function":
            return t in INPLACE_FUNCTIONS or node.kwargs.get("inplace", False) is True
        return False

    # ------------------------------------------------------------ the walk
    def run(self, example):
        gm = self.gm
        if self.with_params:
            for name, t in list(gm.named_parameters()) + list(gm.named_buffers()):
                b, a = self.new_buffer(TensorMetadata(t.shape, t.dtype, False, t.stride(), torch.contiguous_format,
                                                      False, {}), f"param.{name}", [])
                self.param_buf[name] = b
        for node in gm.graph.nodes:
            if node.op == "placeholder":
                b, a = self.new_buffer(node.meta.get("tensor_meta"), "input", [])
                c = self.node(Op="Input", Name=node.name, Inputs=[b])
                self.compute_of[node] = c
                self.edge(a, c)
                self.write(c, b)
                self.value[node], self.producer[node] = b, c
            elif node.op == "get_attr":
                self.value[node] = self.param_buf.get(node.target) if self.with_params else None
            elif node.op == "output":
                self.output(node)
            else:
                self.call(node)
        return {"Nodes": self.nodes, "Edges": self.edges}

    def call(self, node):
        meta = node.meta.get("tensor_meta")
        inputs = self.fx_inputs(node)
        in_bufs = [b for i in inputs for b in self.buffers_of(i)]
        if node.op == "call_module" and self.with_params:
            mod = self.gm.get_submodule(node.target)
            prefix = node.target + "."
            in_bufs += [self.param_buf[prefix + n] for n, _ in mod.named_parameters(recurse=True)
                        if prefix + n in self.param_buf]
            in_bufs += [self.param_buf[prefix + n] for n, _ in mod.named_buffers(recurse=True)
                        if prefix + n in self.param_buf]
        deps = self.deps_of(inputs) + [self.writer[b] for b in in_bufs if b in self.writer]
        deps = list(dict.fromkeys(deps))
        if meta is None:
            # A non-tensor result (a size, a Python number): no memory; keep
            # the ordering it implies for whoever uses it.
            if inputs and deps:
                self.producer[node] = deps[-1]
            self.value[node] = None
            return
        op = op_name(self.gm, node)
        if node.target is operator.getitem and isinstance(self.value.get(node.args[0]), tuple):
            idx = node.args[1]
            src = self.value[node.args[0]]
            if not isinstance(idx, int) or not -len(src) <= idx < len(src):
                raise ExportError(f"op {node.name}: getitem {idx!r} of a tuple of {len(src)} tensors")
            c = self.node(Op="getitem", Name=node.name, Inputs=[src[idx]])
            self.compute_of[node] = c
            for d in deps:
                self.edge(d, c)
            self.read(c, [src[idx]])
            self.value[node], self.producer[node] = src[idx], c
            return
        if self.is_alias(node) or self.is_inplace(node):
            first = inputs[0] if inputs else None
            bufs = self.buffers_of(first) if first is not None else []
            if len(bufs) != 1:
                raise ExportError(f"op {node.name} ({op}) aliases an input that is not one tensor")
            b = bufs[0]
            c = self.node(Op=op, Name=node.name, Inputs=list(dict.fromkeys(in_bufs)))
            self.compute_of[node] = c
            for d in deps:
                self.edge(d, c)
            others = [x for x in in_bufs if x != b]
            self.read(c, others)
            if self.is_inplace(node):
                self.write(c, b)
            else:
                self.read(c, [b])
            outs = self.flatten_meta(node, meta)
            self.value[node] = b if isinstance(meta, TensorMetadata) else tuple([b] * len(outs))
            self.producer[node] = c
            return
        outs = self.flatten_meta(node, meta)
        made = []
        for k, m in enumerate(outs):
            name = node.name if isinstance(meta, TensorMetadata) else f"{node.name}.{k}"
            made.append(self.new_buffer(m, name, deps))
        c = self.node(Op=op, Name=node.name, Inputs=list(dict.fromkeys(in_bufs + [b for b, _ in made])))
        self.compute_of[node] = c
        for d in deps:
            self.edge(d, c)
        for _, a in made:
            self.edge(a, c)
        self.read(c, in_bufs)
        for b, _ in made:
            self.write(c, b)
        bufs = tuple(b for b, _ in made)
        self.value[node] = bufs[0] if isinstance(meta, TensorMetadata) else bufs
        self.producer[node] = c

    def flatten_meta(self, node, meta):
        if isinstance(meta, TensorMetadata):   # a NamedTuple itself: test it first
            return [meta]
        if isinstance(meta, (tuple, list)) and meta and all(isinstance(m, TensorMetadata) for m in meta):
            return list(meta)
        raise ExportError(f"op {node.name} ({op_name(self.gm, node)}) returns {type(meta).__name__} "
                          "with values that are not tensors; fx2memtris exports tensors and flat tuples of them")

    def output(self, node):
        inputs = self.fx_inputs(node)
        bufs = [b for i in inputs for b in self.buffers_of(i)]
        c = self.node(Op="Output", Name="output", Inputs=list(dict.fromkeys(bufs)))
        self.output_bufs = set(bufs)
        self.compute_of[node] = c
        for d in self.deps_of(inputs):
            self.edge(d, c)
        self.read(c, bufs)
        for b in sorted(self.touch):
            f = self.node(Op="FREE", BufId=b, Name=f"free {self.buf_name[b]}")
            for t in dict.fromkeys(self.touch[b]):
                self.edge(t, f)
            if b in self.param_buf.values():
                self.edge(c, f)


class TimingInterpreter(torch.fx.Interpreter):
    """Runs the traced model, adding each node's run_node time (seconds) to
    times[node] while `record` is set."""
    def __init__(self, gm):
        super().__init__(gm)
        self.times, self.record = {}, False

    def run_node(self, n):
        t0 = time.perf_counter()
        result = super().run_node(n)
        t1 = time.perf_counter()
        if self.record:
            self.times.setdefault(n, []).append(t1 - t0)
        return result


def measure(gm, example, repeats, threads):
    """{fx node: median seconds} over `repeats` runs after one warm-up."""
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        interp = TimingInterpreter(gm)
        with torch.no_grad():
            interp.run(example)
            interp.record = True
            for _ in range(repeats):
                interp.run(example)
    finally:
        torch.set_num_threads(before)
    return {n: statistics.median(t) for n, t in interp.times.items()}


def numel(meta):
    """Elements of a TensorMetadata, or of every tensor of a tuple of them."""
    if isinstance(meta, TensorMetadata):
        return math.prod(int(d) for d in meta.shape)
    if isinstance(meta, (tuple, list)):
        return sum(numel(m) for m in meta)
    return 0


def flops(ex, node):
    """--latency flops: the operations of one fx node, graphkit.op_flops's
    estimate."""
    gm, t = ex.gm, node.target
    if node.op in ("placeholder", "output") or ex.is_alias(node) or t is operator.getitem:
        return graphkit.op_flops("none")
    out = numel(node.meta.get("tensor_meta"))
    args = [a.meta.get("tensor_meta") for a in node.args if isinstance(a, torch.fx.Node)]
    shape = lambda k: list(args[k].shape) if len(args) > k and isinstance(args[k], TensorMetadata) else None
    if node.op == "call_module":
        mod = gm.get_submodule(t)
        if isinstance(mod, (torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d, torch.nn.ConvTranspose3d)):
            return graphkit.op_flops("conv_transpose", src=numel(args[0]), k=mod.weight[0].numel())
        if isinstance(mod, torch.nn.modules.conv._ConvNd):
            return graphkit.op_flops("conv", out=out, k=mod.weight[0].numel())
        if isinstance(mod, torch.nn.Linear):
            return graphkit.op_flops("matmul", out=out, k=mod.in_features)
    elif t in CONV_FUNCTIONS and shape(1):
        return graphkit.op_flops("conv", out=out, k=math.prod(shape(1)[1:]))
    elif (node.op == "call_function" and t in MATMUL_FUNCTIONS or
          node.op == "call_method" and t in MATMUL_METHODS) and shape(0):
        return graphkit.op_flops("matmul", out=out, k=shape(0)[-1])
    elif t in ADDMM and shape(1):
        return graphkit.op_flops("matmul", out=out, k=shape(1)[-1])
    return graphkit.op_flops("other", out=out, reads=sum(numel(a) for a in args))


def export(model, shape, dtype, params, latency="none", repeats=5, threads=1, streams=1, use_make_fx=False,
           order=False):
    if latency not in LATENCY_MODES:
        raise ExportError(f"latency must be one of {', '.join(LATENCY_MODES)}, not '{latency}'")
    timing = (repeats, threads) if latency == "measure" else None
    if use_make_fx:
        return export_make_fx(model, shape, dtype, params, streams, latency == "flops", timing)
    try:
        gm = torch.fx.symbolic_trace(model)
    except Exception:
        return export_make_fx(model, shape, dtype, params, streams, latency == "flops", timing)
    inputs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(inputs) != 1:
        raise ExportError(f"{type(model).__name__} takes {len(inputs)} inputs; fx2memtris feeds exactly one")
    try:
        example = torch.randn(*shape)
    except Exception as e:   # RuntimeError when it cannot be allocated
        raise ExportError(f"cannot make an input of shape {list(shape)} to trace with: {first_line(e)}")
    prop = _ShapeProp(gm)
    try:   # ShapeProp prints the traceback of an op's failure: kept from the user
        with torch.no_grad(), contextlib.redirect_stderr(io.StringIO()):
            prop.propagate(example)
    except Exception as e:
        inner = e.__cause__ or e.__context__ or e   # ShapeProp's wraps the op's own error
        at = f" at its node {prop.at.name}" if prop.at is not None else ""
        raise ExportError(f"running {type(model).__name__} on an input of shape {list(shape)} failed{at}: "
                          f"{first_line(inner)}")
    ex = Exporter(gm, dtype, params)
    graph = ex.run(example)
    if latency == "measure":
        ms = {n: 1e3 * s for n, s in measure(gm, example, repeats, threads).items()}
    elif latency == "flops":
        ms = {n: graphkit.flops_ms(flops(ex, n)) for n in ex.compute_of}
    if latency != "none":
        for n, c in ex.compute_of.items():
            lat = graphkit.round_sig(ms.get(n, 0.0))
            if lat > graphkit.MAX_LATENCY_MS:
                raise ExportError(f"op {n.name}: --latency {latency} gives {lat:g} ms, more than memtris's "
                                  f"largest Latency, {graphkit.MAX_LATENCY_MS:g} ms")
            graph["Nodes"][c]["Latency"] = lat
    if order:
        tag_forward(graph, ex)
    try:
        graphkit.set_streams(graph, streams)
    except ValueError as e:
        raise ExportError(str(e))
    return graph


def tag_forward(graph, ex):
    """--execution-order: Category (input, weight, activation, output) on the
    ALLOCs, Phase forward on the compute nodes, Ids in execution order."""
    weights = set(ex.param_buf.values())
    for nd in graph["Nodes"]:
        if nd["Op"] == "ALLOC":
            b = nd["BufId"]
            nd["Category"] = ("weight" if b in weights else "input" if ex.buf_name[b] == "input"
                              else "output" if b in ex.output_bufs else "activation")
        elif nd["Op"] != "FREE":
            nd["Phase"] = "forward"
    return fxtrain.execution_order(graph)


def export_make_fx(model, shape, dtype, params, streams, flops=False, timing=None):
    """Forward only through make_fx, where symbolic tracing fails."""
    try:
        graph, _, _ = fxtrain.export_forward(model, shape, dtype, params, graphkit, flops, timing)
        graphkit.set_streams(graph, streams)
    except (fxtrain.TrainError, ValueError) as e:
        raise ExportError(str(e))
    return graph


def export_train(model, shape, dtype, optimizer="sgd", loss="sum", measure=False, streams=1, flops=False,
                 timing=None):
    """--train: one training step's joint graph (fxtrain.py), with
    --measure the real step's peak as "Measured"."""
    try:
        graph, _, _ = fxtrain.export_train(model, shape, dtype, graphkit, optimizer, loss, flops=flops,
                                           timing=timing, workspace=measure)
        graphkit.set_streams(graph, streams)
        if measure:
            peak = fxtrain.measure_peak(model, shape, optimizer, loss, None)
            graph["Measured"] = {"peak": peak, "how": fxtrain.MEASURE_HOW}
    except (fxtrain.TrainError, ValueError) as e:
        raise ExportError(str(e))
    except RuntimeError as e:
        raise ExportError(f"running a training step of {type(model).__name__} failed: {first_line(e)}")
    return graph


def input_bytes_check(ap, shape):
    """--batch and --input-shape: every dimension from 1 to 2^53-1, and the
    float32 input that shape propagation makes small enough to be made: at
    most 2^53-1 bytes and at most this machine's memory."""
    if any(not 1 <= d <= graphkit.MAX_SIZE for d in shape):
        ap.error(f"--batch and every dimension of --input-shape must be from 1 to 2^53-1, got {shape}")
    need = 4 * math.prod(shape)
    if need > graphkit.MAX_SIZE:
        ap.error(f"--batch {shape[0]} --input-shape {','.join(map(str, shape[1:]))}: the input alone is "
                 f"{need} bytes, more than memtris's largest Size, 2^53-1")
    try:
        mem = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        mem = None
    if mem and mem > 0 and need > mem:
        ap.error(f"--batch {shape[0]} --input-shape {','.join(map(str, shape[1:]))}: tracing runs the model on a "
                 f"float32 input of {need} bytes, more than this machine's memory ({mem} bytes)")


def main(argv=None):
    ap = graphkit.ArgumentParser(prog="fx2memtris.py", name="fx2memtris", description=__doc__.split("\n\n")[0])
    ap.add_argument("model", help="torchvision model name, or module.path:ClassOrFactory")
    ap.add_argument("--input-shape", default="3,224,224", help="input shape without the batch (default 3,224,224)")
    ap.add_argument("--batch", type=int, default=1, help="batch size (default 1)")
    ap.add_argument("--dtype", default="float32", choices=sorted(DTYPES), help="element type of floating tensors")
    ap.add_argument("--params", action="store_true", help="add parameters and buffers, live for the whole run")
    ap.add_argument("--inplace", action=argparse.BooleanOptionalAction, default=False,
                    help="an elementwise op or a reshape writes its output over a same-size input that dies "
                         "there, as ONNX Runtime does (graphkit.inplace); default off: torch eager mode, where "
                         "only the model's own in-place ops reuse")
    ap.add_argument("--latency", default="none", choices=LATENCY_MODES,
                    help="none (default), measure (median CPU time of each op, ms) or flops "
                         f"(estimated from shapes at {FLOPS_PER_SECOND / 1e9:g} GFLOP/s)")
    ap.add_argument("--repeats", type=int, default=5, help="--latency measure: timed runs (default 5)")
    ap.add_argument("--threads", type=int, default=1,
                    help=f"--latency measure: torch threads, 1 to {MAX_THREADS} (default 1)")
    ap.add_argument("--streams", type=int, default=1,
                    help=f"spread compute nodes over streams 0..N-1 by the fork rule, N from 1 to "
                         f"{graphkit.MAX_STREAMS} (default 1: Stream only on data movement)")
    ap.add_argument("--train", action="store_true",
                    help="one training step: forward, loss, backward, optimizer update (make_fx)")
    ap.add_argument("--optimizer", default="sgd", choices=fxtrain.OPTIMIZERS, help="--train: the update (default sgd)")
    ap.add_argument("--loss", default="sum", choices=fxtrain.LOSSES, help="--train: the loss (default sum)")
    ap.add_argument("--seed", type=int, default=0,
                    help="torch.manual_seed before the model is made (its weights) and its inputs drawn "
                         "(default 0; tools/runplan.py takes the same)")
    ap.add_argument("--measure", action="store_true",
                    help="--train: run the real step on the CPU under torch.profiler, write its peak as Measured")
    ap.add_argument("--make-fx", action="store_true",
                    help="forward through make_fx (aten ops, Category, Phase, Ids in execution order), "
                         "as when symbolic tracing fails")
    ap.add_argument("--execution-order", action="store_true",
                    help="Category and Phase, and Ids in execution order with each FREE after its buffer's last "
                         "use (as --train and --make-fx write them; off by default, as the committed samples were)")
    ap.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    a = ap.parse_args(argv)
    if a.make_fx and a.latency == "measure":
        ap.error("--make-fx estimates Latency (--latency flops) but does not measure it yet")
    if a.measure and not a.train:
        ap.error("--measure measures a training step; add --train")
    if a.repeats < 1 or not 1 <= a.threads <= MAX_THREADS:
        ap.error(f"--repeats must be at least 1 and --threads from 1 to {MAX_THREADS}, got {a.repeats} and "
                 f"{a.threads}")
    if not 1 <= a.streams <= graphkit.MAX_STREAMS:
        ap.error(f"--streams wants an integer from 1 to {graphkit.MAX_STREAMS}, not {a.streams}")
    try:   # every part an integer: '' or '3,,4' is a usage error, not a shape the model fails on
        shape = [a.batch] + [int(x) for x in a.input_shape.split(",")]
    except ValueError:
        ap.error(f"--input-shape must be comma-separated integers, got '{a.input_shape}'")
    if not 0 <= a.seed < 2**63:
        ap.error(f"--seed must be from 0 to 2^63-1, got {a.seed}")
    input_bytes_check(ap, shape)
    graphkit.check_output_option(ap, a.output)
    if graphkit.output_problem("fx2memtris", a.output):
        return 1
    try:
        sys.path.insert(0, ".")
        torch.manual_seed(a.seed)
        if a.train:
            graph = export_train(load_model(a.model), shape, DTYPES[a.dtype], a.optimizer, a.loss, a.measure,
                                 a.streams, a.latency == "flops",
                                 (a.repeats, a.threads) if a.latency == "measure" else None)
        else:
            graph = export(load_model(a.model), shape, DTYPES[a.dtype], a.params, a.latency, a.repeats,
                           a.threads, a.streams, a.make_fx, a.execution_order)
    except ExportError as e:
        graphkit.say("fx2memtris", str(e))
        return 1
    if a.inplace:
        graphkit.inplace(graph)
    return graphkit.write_compact(graph, a.output, "fx2memtris")


if __name__ == "__main__":
    sys.exit(graphkit.run_tool("fx2memtris", main))
