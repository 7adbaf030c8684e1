#!/usr/bin/python3
"""onnx2memtris.py: exports an ONNX model to memtris's JSON graph format, by
ONNX shape inference.

Usage: onnx2memtris.py MODEL.onnx [--batch N] [--dim NAME=VALUE]... [--params]
                       [--latency none|flops] [--[no-]inplace] [-o FILE]
Run it with Debian's /usr/bin/python3 (python3-onnx, 1.12 when written).

Shapes: the graph inputs' symbolic dimensions are settled first (--batch N
sets the first dimension of every graph input whose first dimension is
symbolic or unknown; --dim NAME=VALUE sets every dimension named NAME, and may
be repeated), then onnx.shape_inference.infer_shapes runs (strict mode, type
checks and data propagation on). Every tensor an op produces must then have a
known element type and every dimension a number; a dimension still symbolic
is refused naming the tensor and the node, and so is a shape inference could
not find: never export wrong.

The graph, per ONNX node, in the order of the file (topological by ONNX's rule):
- an op that makes new tensors gets one ALLOC per output tensor (bytes =
  elements x element size of its elem_type), then a compute node (Op =
  op_type, Name = the node's name, or OPTYPE_INDEX when it has none, Inputs =
  the buffers it reads and writes); the ALLOC depends on the producers of the
  op's inputs, so it becomes ready exactly when the op could run;
- an op that aliases its input allocates nothing (ALIAS_OPS: Reshape, Squeeze,
  Unsqueeze, Flatten, Identity, and Dropout's data output, which is its input
  when inferring): it becomes a compute node reading the source buffer, and
  its output is that buffer, whose life it extends. Expand and Transpose copy
  (in ONNX Runtime too) and get an ALLOC like any op;
- every buffer gets a FREE after the last node that reads it, through any
  alias; each graph input (that is not an initializer) is an ALLOC and an
  "Input" node at the start, and the graph outputs are read by a final
  "Output" node and freed after it;
- initializers and Constant nodes (weights) are left out unless --params is
  given; then each is an ALLOC at the start, read by the ops that use it,
  freed after Output;
- each ALLOC has a Category (weight: initializers and Constants; input: graph
  inputs; output: what Output reads, unless a weight or an input; activation:
  the rest), each compute node Phase forward;
- Ids are the execution order (ONNX's node order): ALLOCs just before the op
  that makes their buffer, each FREE right after its buffer's last use
  (graphkit.free_after_last_use), so memtris's policy given is that order;
- --inplace (the default; --no-inplace turns it off): ONNX Runtime's reuse,
  graphkit.inplace: an elementwise op or a reshape that makes one buffer
  writes it over a same-size input buffer that dies at that op (its last
  use, not a graph input, weight or graph output); tools/README.md has the
  rule and the ops.
Refused (exit 1, one line naming the file and the node and its op, or the
tensor): an empty file (0 bytes), one that is not an ONNX model or is cut
short (it does not parse, or lacks its ir_version, graph or opset_import);
a graph that is not a straight line in order: a node reading its own output
or a longer cycle, a node reading a tensor before the node that makes it, a
tensor made twice, a node input or graph output nothing makes; nodes with a
subgraph (If, Loop, Scan: any GRAPH or GRAPHS attribute), a produced tensor of
a string, undefined or non-tensor (sequence, map, optional) type, a produced
tensor without an inferred shape, with a negative dimension, or over 2^53-1
bytes (memtris's largest Size), and a Concat whose inferred length is not the
sum of its inputs' (ONNX 1.12 adds them in 32 bits: two of 2^31 make 0);
with --latency flops, an estimate over 1e9 ms (memtris's largest Latency);
a model that crashes ONNX's shape inference (run in a child process); a
model file missing, unreadable or a folder. Usage errors exit 2: an option
value out of range (--batch and --dim values from 1 to 2^53-1), -o ''. An -o
that cannot be written (a missing folder, a folder, a full disk) is one line
and exit 1, leaving no file.

--latency flops estimates each compute node's time from shapes by
graphkit.op_flops, the estimate fx2memtris.py uses: Conv
2*N*Cout*Hout*Wout*(Cin/group)*kh*kw (ConvTranspose
2*N*Cin*Hin*Win*(Cout/group)*kh*kw), MatMul and Gemm 2*M*N*K, every other op
the elements it reads and writes, aliases, Input and Output 0; at
graphkit.FLOPS_PER_SECOND (50 GFLOP/s), 4 significant digits.
"""
import argparse
import contextlib
import math
import os
import signal
import stat
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graphkit  # noqa: E402

try:
    import onnx
    from onnx import TensorProto
except ImportError as e:   # pragma: no cover - reported to the user
    sys.exit(f"onnx2memtris: cannot import onnx ({e}); install python3-onnx and run with /usr/bin/python3")

# Bytes per element of each tensor elem_type memtris can size.
ELEM_SIZE = {TensorProto.BOOL: 1, TensorProto.UINT8: 1, TensorProto.INT8: 1, TensorProto.UINT16: 2,
             TensorProto.INT16: 2, TensorProto.FLOAT16: 2, TensorProto.BFLOAT16: 2, TensorProto.INT32: 4,
             TensorProto.UINT32: 4, TensorProto.FLOAT: 4, TensorProto.INT64: 8, TensorProto.UINT64: 8,
             TensorProto.DOUBLE: 8, TensorProto.COMPLEX64: 8, TensorProto.COMPLEX128: 16}
# Ops whose first output is their first input's storage (ONNX Runtime's
# Reshape, Squeeze, Unsqueeze, Flatten and Identity kernels alias it; Dropout
# in inference returns its input). Their other outputs, if any, are new.
ALIAS_OPS = frozenset({"Reshape", "Squeeze", "Unsqueeze", "Flatten", "Identity", "Dropout"})
LATENCY_MODES = ("none", "flops")


class ExportError(Exception):
    pass


def dtype_name(elem_type):
    return TensorProto.DataType.Name(elem_type) if elem_type in TensorProto.DataType.values() else str(elem_type)


def settle_dims(model, batch, dims):
    """Sets --batch on the graph inputs and --dim on the inputs and outputs, in
    place (an output's first dimension is what inference makes of the inputs')."""
    init = {t.name for t in model.graph.initializer}
    n_in = len(model.graph.input)
    for j, vi in enumerate(list(model.graph.input) + list(model.graph.output)):
        if not vi.type.HasField("tensor_type") or not vi.type.tensor_type.HasField("shape"):
            continue
        shape = vi.type.tensor_type.shape.dim
        for k, d in enumerate(shape):
            if d.HasField("dim_value"):
                continue
            if d.dim_param in dims:
                d.dim_value = dims[d.dim_param]
            elif k == 0 and batch is not None and j < n_in and vi.name not in init:
                d.dim_value = batch


def _infer_here(model):
    try:
        return onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    except Exception as e:
        raise ExportError(f"ONNX shape inference failed: {graphkit.describe(e)}")


def infer(model):
    """The model with inferred shapes. ONNX's shape inference is C++ that a
    corrupt model can crash (onnx 1.12: a Constant whose raw_data is shorter
    than its shape, under data propagation, is a SIGSEGV), so it runs in a
    child process; a crash there is an ExportError, not the end of this one."""
    if not hasattr(os, "fork"):
        return _infer_here(model)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: the answer (b"M" + the model, or b"E" + the message) down the pipe
        code = 1
        try:
            os.close(r)
            with contextlib.suppress(Exception):   # no core file for a crash
                import resource
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            try:
                payload = b"M" + _infer_here(model).SerializeToString()
            except ExportError as e:
                payload = b"E" + str(e).encode()
            except Exception as e:
                payload = b"E" + f"ONNX shape inference failed: {type(e).__name__}: {e}".encode()
            with os.fdopen(w, "wb") as f:
                f.write(payload)
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        payload = f.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            name = signal.Signals(sig).name
        except ValueError:
            name = f"signal {sig}"
        raise ExportError(f"ONNX shape inference crashed ({name}): the model is corrupt, or beyond onnx "
                          f"{onnx.__version__}")
    if payload[:1] == b"E":
        raise ExportError(payload[1:].decode("utf-8", "replace"))
    if payload[:1] != b"M" or os.WEXITSTATUS(status) != 0:
        raise ExportError(f"ONNX shape inference ended with status {os.WEXITSTATUS(status)} and no answer")
    inferred = onnx.ModelProto()
    inferred.ParseFromString(payload[1:])
    return inferred


class Exporter(graphkit.Emitter):
    def __init__(self, model, params):
        self.g, self.with_params = model.graph, params
        super().__init__()
        self.seen = set()
        self.types = {}          # tensor name -> TypeProto
        for vi in list(self.g.input) + list(self.g.value_info) + list(self.g.output):
            self.types[vi.name] = vi.type
        for t in self.g.initializer:
            self.types.setdefault(t.name, onnx.helper.make_tensor_type_proto(t.data_type, list(t.dims)))
        self.buf = {}            # tensor name -> buffer (aliases share one)
        self.producer = {}       # tensor name -> memtris node whose result it is
        self.buf_name, self.touch, self.params = {}, {}, set()
        self.compute_of = {}     # memtris compute node -> (onnx node or None)
        self.index_of = {}       # memtris compute node -> its onnx node's index
        self.alloc_of = {}       # buffer -> its ALLOC

    def edge(self, u, v):
        """Emitter's edge, each pair once."""
        if (u, v) not in self.seen:
            self.seen.add((u, v))
            super().edge(u, v)

    def size_of(self, tensor, where, tp=None):
        tp = tp if tp is not None else self.types.get(tensor)
        if tp is None or not tp.HasField("tensor_type"):
            what = "no type" if tp is None else f"a {tp.WhichOneof('value')} type, not a tensor"
            raise ExportError(f"{where}: tensor '{tensor}' has {what}; memtris sizes tensors only")
        tt = tp.tensor_type
        if tt.elem_type not in ELEM_SIZE:
            raise ExportError(f"{where}: tensor '{tensor}' has element type {dtype_name(tt.elem_type)}, "
                              "which has no fixed size")
        if not tt.HasField("shape"):
            raise ExportError(f"{where}: the shape of tensor '{tensor}' cannot be inferred")
        n = 1
        for k, d in enumerate(tt.shape.dim):
            if not d.HasField("dim_value"):
                name = (f"'{d.dim_param}'" if d.dim_param and not d.dim_param.startswith("unk__")
                        else "unknown (shape inference could not compute it)")
                raise ExportError(f"{where}: tensor '{tensor}' dimension {k} is {name}, still symbolic "
                                  "(settle it with --batch N or --dim NAME=VALUE)")
            if d.dim_value < 0:
                raise ExportError(f"{where}: tensor '{tensor}' dimension {k} is {d.dim_value}, negative")
            n *= d.dim_value
        size = n * ELEM_SIZE[tt.elem_type]
        if size > graphkit.MAX_SIZE:
            raise ExportError(f"{where}: tensor '{tensor}' of shape {[d.dim_value for d in tt.shape.dim]} is "
                              f"{size} bytes, more than memtris's largest Size, 2^53-1 ({graphkit.MAX_SIZE})")
        return size

    def new_buffer(self, tensor, size, deps, category="activation"):
        b = len(self.buf_name) + 1
        self.buf_name[b] = tensor
        a = self.node(Op="ALLOC", Size=size, BufId=b, Name=f"{tensor}.out", Category=category)
        self.alloc_of[b] = a
        for d in deps:
            self.edge(d, a)
        self.touch[b] = [a]
        self.buf[tensor] = b
        return b, a

    def run(self):
        init = {t.name: t for t in self.g.initializer}
        if self.with_params:
            for t in self.g.initializer:
                size = self.size_of(t.name, f"initializer '{t.name}'")
                self.params.add(self.new_buffer(t.name, size, [], "weight")[0])
            for i, n in enumerate(self.g.node):
                if n.op_type == "Constant":
                    for o in n.output:
                        self.params.add(self.new_buffer(o, self.size_of(o, self.where(n, i)), [], "weight")[0])
        for vi in self.g.input:
            if vi.name in init:
                continue
            size = self.size_of(vi.name, f"graph input '{vi.name}'", vi.type)
            b, a = self.new_buffer(vi.name, size, [], "input")
            c = self.node(Op="Input", Name=vi.name, Inputs=[b], Phase="forward")
            self.compute_of[c] = None
            self.edge(a, c)
            self.touch[b].append(c)
            self.producer[vi.name] = c
        for i, n in enumerate(self.g.node):
            if n.op_type != "Constant":
                self.op(n, i)
        self.output()
        return {"Nodes": self.nodes, "Edges": self.edges}

    @staticmethod
    def name_of(n, i=None):
        return n.name or (f"{n.op_type}_{i}" if i is not None else f"<unnamed {n.op_type}>")

    def where(self, n, i):
        return f"node {self.name_of(n, i)} ({n.op_type})"

    def op(self, n, i):
        ins = [t for t in n.input if t]
        in_bufs = list(dict.fromkeys(self.buf[t] for t in ins if t in self.buf))
        deps = list(dict.fromkeys(self.producer[t] for t in ins if t in self.producer))
        deps += [self.touch[b][0] for b in in_bufs if b in self.params]   # a weight's ALLOC
        outs = list(n.output)
        alias = n.op_type in ALIAS_OPS and ins and outs and outs[0]
        if n.op_type == "Concat":
            self.check_concat(n, i)
        made = []
        for k, t in enumerate(outs):
            if not t or alias and k == 0:
                continue
            size = self.size_of(t, self.where(n, i))
            made.append(self.new_buffer(t, size, deps))
        if alias:
            self.size_of(outs[0], self.where(n, i))    # its shape must be known too
            if ins[0] in self.buf:
                self.buf[outs[0]] = self.buf[ins[0]]
        c = self.node(Op=n.op_type, Name=self.name_of(n, i), Inputs=in_bufs + [b for b, _ in made], Phase="forward")
        self.compute_of[c], self.index_of[c] = n, i
        for d in deps:
            self.edge(d, c)
        for _, a in made:
            self.edge(a, c)
        for b in in_bufs + [b for b, _ in made]:
            self.touch[b].append(c)
        for t in outs:
            if t:
                self.producer[t] = c

    def check_concat(self, n, i):
        """ONNX 1.12's shape inference adds Concat's lengths in 32 bits: two
        inputs of 2^31 make an output of length 0. The sum is checked here."""
        dims = []
        for t in [t for t in n.input if t] + [n.output[0]]:
            tp = self.types.get(t)
            if tp is None or not tp.HasField("tensor_type") or not tp.tensor_type.HasField("shape"):
                return
            dims.append([d.dim_value if d.HasField("dim_value") else None for d in tp.tensor_type.shape.dim])
        axis = next((a.i for a in n.attribute if a.name == "axis"), 0)
        rank = len(dims[-1])
        if not -rank <= axis < rank or any(len(d) != rank for d in dims):
            return
        axis %= rank
        parts = [d[axis] for d in dims[:-1]]
        if None not in parts and dims[-1][axis] is not None and sum(parts) != dims[-1][axis]:
            raise ExportError(f"{self.where(n, i)}: ONNX shape inference made dimension {axis} of tensor "
                              f"'{n.output[0]}' {dims[-1][axis]}, but its inputs add up to {sum(parts)} "
                              "(onnx 1.12 adds them in 32 bits); not exported wrong")

    def output(self):
        outs = [vi.name for vi in self.g.output]
        bufs = list(dict.fromkeys(self.buf[t] for t in outs if t in self.buf))
        c = self.node(Op="Output", Name="output", Inputs=bufs, Phase="forward")
        self.compute_of[c] = None
        for b in bufs:
            if self.nodes[self.alloc_of[b]]["Category"] == "activation":
                self.nodes[self.alloc_of[b]]["Category"] = "output"
        for t in outs:
            if t in self.producer:
                self.edge(self.producer[t], c)
        for b in bufs:
            self.touch[b].append(c)
        for b in sorted(self.buf_name):
            f = self.node(Op="FREE", BufId=b, Name=f"free {self.buf_name[b]}")
            for t in dict.fromkeys(self.touch[b]):
                self.edge(t, f)
            if b in self.params:
                self.edge(c, f)


def flops(ex, n):
    """--latency flops: the operations of one ONNX node, graphkit.op_flops's
    estimate."""
    if n is None or n.op_type in ALIAS_OPS:
        return graphkit.op_flops("none")

    def shape(t):
        tp = ex.types.get(t)
        if tp is None or not tp.HasField("tensor_type"):
            return None
        return [d.dim_value for d in tp.tensor_type.shape.dim]

    def numel(t):
        s = shape(t)
        return math.prod(s) if s is not None else 0

    out = sum(numel(t) for t in n.output if t)
    ins = [t for t in n.input if t]
    w = shape(n.input[1]) if len(n.input) > 1 else None
    a = shape(n.input[0]) if n.input else None
    if n.op_type == "Conv" and w:
        return graphkit.op_flops("conv", out=out, k=math.prod(w[1:]))
    if n.op_type == "ConvTranspose" and w and a:
        return graphkit.op_flops("conv_transpose", src=numel(n.input[0]), k=math.prod(w[1:]))
    if n.op_type == "MatMul" and a:
        return graphkit.op_flops("matmul", out=out, k=a[-1])
    if n.op_type == "Gemm" and a:
        trans_a = next((x.i for x in n.attribute if x.name == "transA"), 0)
        return graphkit.op_flops("matmul", out=out, k=a[0] if trans_a else a[-1])
    return graphkit.op_flops("other", out=out, reads=sum(numel(t) for t in ins))


def check_model(model):
    """Refuses a model that is empty or cut short, or whose graph is not a
    straight line of nodes in order (see the docstring), naming the node."""
    if model.ir_version == 0 and not model.HasField("graph"):
        raise ExportError("not an ONNX model (no ir_version, no graph): an empty or truncated file?")
    for what, missing in (("ir_version", model.ir_version == 0), ("graph", not model.HasField("graph")),
                          ("opset_import", not model.opset_import)):
        if missing:
            raise ExportError(f"the model has no {what}: a truncated file, or not an ONNX model")
    g = model.graph
    if not g.output:
        raise ExportError("the graph has no outputs: a truncated file, or not an ONNX model")
    for i, n in enumerate(g.node):
        for a in n.attribute:
            if a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS):
                raise ExportError(f"node {Exporter.name_of(n, i)} ({n.op_type}) has a subgraph (attribute "
                                  f"'{a.name}'); onnx2memtris exports straight-line graphs only")
    known = {vi.name for vi in g.input} | {t.name for t in g.initializer}
    known |= {t.values.name for t in g.sparse_initializer}
    maker = {}   # tensor -> index of the node that makes it
    for i, n in enumerate(g.node):
        for t in n.output:
            if not t:
                continue
            if t in maker or t in known:
                first = (f"node {Exporter.name_of(g.node[maker[t]], maker[t])}" if t in maker
                         else "a graph input or initializer")
                raise ExportError(f"node {Exporter.name_of(n, i)} ({n.op_type}) makes tensor '{t}', "
                                  f"which {first} makes too; an ONNX tensor is made once")
            maker[t] = i
    for i, n in enumerate(g.node):
        for t in n.input:
            if not t or t in known or t in maker and maker[t] < i:
                continue
            where = f"node {Exporter.name_of(n, i)} ({n.op_type})"
            if t not in maker:
                raise ExportError(f"{where} reads tensor '{t}', which no node makes and which is no graph "
                                  "input or initializer")
            cycle = find_cycle(g, maker, i)
            if cycle:
                ring = " -> ".join(f"{Exporter.name_of(g.node[j], j)} ({g.node[j].op_type})" for j in cycle)
                raise ExportError(f"{where} reads tensor '{t}': the graph has a cycle (each feeds the next): {ring}")
            m = maker[t]
            raise ExportError(f"{where} reads tensor '{t}' before node {Exporter.name_of(g.node[m], m)} "
                              f"({g.node[m].op_type}) makes it; ONNX wants the nodes in topological order")
    for vi in g.output:
        if vi.name not in maker and vi.name not in known:
            raise ExportError(f"graph output '{vi.name}' is made by no node and is no graph input")


def find_cycle(g, maker, start):
    """A cycle of node indices through node start, each feeding the next, from
    start back to start ([start, start] for a node reading its own output);
    None when start is on no cycle. Iterative: a long chain is no recursion."""
    preds = lambda j: [maker[t] for t in g.node[j].input if t in maker]
    parent, stack = {start: None}, [start]
    while stack:
        j = stack.pop()
        for p in preds(j):
            if p == start:
                path = [j]
                while parent[path[-1]] is not None:
                    path.append(parent[path[-1]])
                return [start] + path
            if p not in parent:
                parent[p] = j
                stack.append(p)
    return None


def export(model, batch=None, dims=None, params=False, latency="none", inplace=True):
    """The memtris graph (a dict) of an onnx.ModelProto: Ids in execution
    order, each FREE right after its buffer's last use; with inplace,
    graphkit.inplace's reuse (ONNX Runtime's)."""
    if latency not in LATENCY_MODES:
        raise ExportError(f"latency must be one of {', '.join(LATENCY_MODES)}, not '{latency}'")
    check_model(model)
    m = onnx.ModelProto()
    m.CopyFrom(model)
    settle_dims(m, batch, dims or {})
    del m.graph.value_info[:]
    ex = Exporter(infer(m), params)
    graph = ex.run()
    if latency == "flops":
        for c, n in ex.compute_of.items():
            ms = graphkit.round_sig(graphkit.flops_ms(flops(ex, n)))
            if ms > graphkit.MAX_LATENCY_MS:
                raise ExportError(f"{ex.where(n, ex.index_of[c])}: --latency flops estimates {ms:g} ms, "
                                  f"more than memtris's largest Latency, {graphkit.MAX_LATENCY_MS:g} ms")
            graph["Nodes"][c]["Latency"] = ms
    graphkit.free_after_last_use(graph)
    if inplace:
        graphkit.inplace(graph)
    return graph


def parse_dim(text):
    name, eq, value = text.partition("=")
    if not eq or not name or not value.strip().isdigit() or not 1 <= int(value) <= graphkit.MAX_SIZE:
        raise ValueError(text)
    return name, int(value)


def load(path):
    """The onnx.ModelProto in path (its external data, weights only, is not
    read); ExportError for an empty file or one that does not parse."""
    try:
        st = os.stat(path)
        if stat.S_ISREG(st.st_mode) and st.st_size == 0:
            raise ExportError("the file is empty (0 bytes), not an ONNX model")
        with warnings.catch_warnings():
            # protobuf's "Unexpected end-group tag: Not all data was converted"
            warnings.simplefilter("error", RuntimeWarning)
            return onnx.load(path, load_external_data=False)
    except ExportError:
        raise
    except OSError as e:
        raise ExportError(f"cannot read it: {e.strerror or e}")
    except Exception as e:   # protobuf's DecodeError, its RuntimeWarning, ...: words, no repr
        raise ExportError(f"cannot read an ONNX model (truncated, or not ONNX): {graphkit.describe(e)[:200]}")


def main(argv=None):
    ap = graphkit.ArgumentParser(prog="onnx2memtris.py", name="onnx2memtris", description=__doc__.split("\n\n")[0])
    ap.add_argument("model", help="an ONNX model file (.onnx)")
    ap.add_argument("--batch", type=int, help="the first dimension of graph inputs where it is symbolic")
    ap.add_argument("--dim", action="append", default=[], metavar="NAME=VALUE",
                    help="give the symbolic dimension NAME a value (repeatable)")
    ap.add_argument("--params", action="store_true", help="add initializers and constants, live for the whole run")
    ap.add_argument("--latency", default="none", choices=LATENCY_MODES,
                    help="none (default) or flops (estimated from shapes at "
                         f"{graphkit.FLOPS_PER_SECOND / 1e9:g} GFLOP/s)")
    ap.add_argument("--inplace", action=argparse.BooleanOptionalAction, default=True,
                    help="an elementwise op or a reshape writes its output over a same-size input that dies "
                         "there, as ONNX Runtime does (default); --no-inplace: every output its own buffer")
    ap.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    a = ap.parse_args(argv)
    if a.batch is not None and not 1 <= a.batch <= graphkit.MAX_SIZE:
        ap.error(f"--batch wants an integer from 1 to 2^53-1 ({graphkit.MAX_SIZE}), got {a.batch}")
    dims = {}
    for d in a.dim:
        try:
            name, value = parse_dim(d)
        except ValueError:
            ap.error(f"--dim wants NAME=VALUE with VALUE an integer from 1 to 2^53-1, got '{d}'")
        dims[name] = value
    graphkit.check_output_option(ap, a.output)
    if graphkit.output_problem("onnx2memtris", a.output):
        return 1
    try:   # a missing, unreadable or folder MODEL is bad input (1), as for memtris
        graph = export(load(a.model), a.batch, dims, a.params, a.latency, a.inplace)
    except ExportError as e:
        graphkit.say("onnx2memtris", f"{a.model or repr(a.model)}: {e}")
        return 1
    return graphkit.write_compact(graph, a.output, "onnx2memtris")


if __name__ == "__main__":
    sys.exit(graphkit.run_tool("onnx2memtris", main))
