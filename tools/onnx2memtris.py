#!/usr/bin/python3
"""onnx2memtris.py: exports an ONNX model to memtris's JSON graph format, by
ONNX shape inference.

Usage: onnx2memtris.py MODEL.onnx [--batch N] [--dim NAME=VALUE]... [--params]
                       [--latency none|flops] [-o FILE]
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
  freed after Output.
Refused (exit 1, the message names the node and its op, or the tensor):
nodes with a subgraph (If, Loop, Scan: any GRAPH or GRAPHS attribute), a
produced tensor of a string, undefined or non-tensor (sequence, map,
optional) type, and a produced tensor without an inferred shape.

--latency flops estimates each compute node's time from shapes, as
fx2memtris.py does: Conv 2*N*Cout*Hout*Wout*(Cin/group)*kh*kw (ConvTranspose
2*N*Cin*Hin*Win*(Cout/group)*kh*kw), MatMul and Gemm 2*M*N*K, every other op
the elements it reads and writes, aliases, Input and Output 0; at
graphkit.FLOPS_PER_SECOND (50 GFLOP/s), 4 significant digits.
"""
import argparse
import math
import os
import sys

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


def infer(model):
    try:
        return onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True, data_prop=True)
    except Exception as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ExportError(f"ONNX shape inference failed: {first}")


class Exporter:
    def __init__(self, model, params):
        self.g, self.with_params = model.graph, params
        self.nodes, self.edges, self.seen = [], [], set()
        self.types = {}          # tensor name -> TypeProto
        for vi in list(self.g.input) + list(self.g.value_info) + list(self.g.output):
            self.types[vi.name] = vi.type
        for t in self.g.initializer:
            self.types.setdefault(t.name, onnx.helper.make_tensor_type_proto(t.data_type, list(t.dims)))
        self.buf = {}            # tensor name -> buffer (aliases share one)
        self.producer = {}       # tensor name -> memtris node whose result it is
        self.buf_name, self.touch, self.params = {}, {}, set()
        self.compute_of = {}     # memtris compute node -> (onnx node or None)

    def node(self, **kw):
        kw["Id"] = len(self.nodes)
        self.nodes.append(kw)
        return kw["Id"]

    def edge(self, u, v):
        if u is not None and u != v and (u, v) not in self.seen:
            self.seen.add((u, v))
            self.edges.append([u, v])

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
            n *= d.dim_value
        return n * ELEM_SIZE[tt.elem_type]

    def new_buffer(self, tensor, size, deps):
        b = len(self.buf_name) + 1
        self.buf_name[b] = tensor
        a = self.node(Op="ALLOC", Size=size, BufId=b, Name=f"{tensor}.out")
        for d in deps:
            self.edge(d, a)
        self.touch[b] = [a]
        self.buf[tensor] = b
        return b, a

    def run(self):
        init = {t.name: t for t in self.g.initializer}
        for n in self.g.node:
            for a in n.attribute:
                if a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS):
                    raise ExportError(f"node {self.name_of(n)} ({n.op_type}) has a subgraph (attribute "
                                      f"'{a.name}'); onnx2memtris exports straight-line graphs only")
        if self.with_params:
            for t in self.g.initializer:
                self.params.add(self.new_buffer(t.name, self.size_of(t.name, f"initializer '{t.name}'"), [])[0])
            for i, n in enumerate(self.g.node):
                if n.op_type == "Constant":
                    for o in n.output:
                        self.params.add(self.new_buffer(o, self.size_of(o, self.where(n, i)), [])[0])
        for vi in self.g.input:
            if vi.name in init:
                continue
            b, a = self.new_buffer(vi.name, self.size_of(vi.name, f"graph input '{vi.name}'", vi.type), [])
            c = self.node(Op="Input", Name=vi.name, Inputs=[b])
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
        c = self.node(Op=n.op_type, Name=self.name_of(n, i), Inputs=in_bufs + [b for b, _ in made])
        self.compute_of[c] = n
        for d in deps:
            self.edge(d, c)
        for _, a in made:
            self.edge(a, c)
        for b in in_bufs + [b for b, _ in made]:
            self.touch[b].append(c)
        for t in outs:
            if t:
                self.producer[t] = c

    def output(self):
        outs = [vi.name for vi in self.g.output]
        bufs = list(dict.fromkeys(self.buf[t] for t in outs if t in self.buf))
        c = self.node(Op="Output", Name="output", Inputs=bufs)
        self.compute_of[c] = None
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
    """--latency flops: the operations of one ONNX node (see the docstring)."""
    if n is None or n.op_type in ALIAS_OPS:
        return 0

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
        return 2 * out * math.prod(w[1:])
    if n.op_type == "ConvTranspose" and w and a:
        return 2 * numel(n.input[0]) * math.prod(w[1:])
    if n.op_type == "MatMul" and a:
        return 2 * out * a[-1]
    if n.op_type == "Gemm" and a:
        trans_a = next((x.i for x in n.attribute if x.name == "transA"), 0)
        return 2 * out * (a[0] if trans_a else a[-1])
    return sum(numel(t) for t in ins) + out


def export(model, batch=None, dims=None, params=False, latency="none"):
    """The memtris graph (a dict) of an onnx.ModelProto."""
    if latency not in LATENCY_MODES:
        raise ExportError(f"latency must be one of {', '.join(LATENCY_MODES)}, not '{latency}'")
    m = onnx.ModelProto()
    m.CopyFrom(model)
    settle_dims(m, batch, dims or {})
    del m.graph.value_info[:]
    ex = Exporter(infer(m), params)
    graph = ex.run()
    if latency == "flops":
        for c, n in ex.compute_of.items():
            graph["Nodes"][c]["Latency"] = graphkit.round_sig(1e3 * flops(ex, n) / graphkit.FLOPS_PER_SECOND)
    return graph


def parse_dim(text):
    name, eq, value = text.partition("=")
    if not eq or not name or not value.strip().isdigit() or int(value) < 1:
        raise ValueError(text)
    return name, int(value)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="onnx2memtris.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("model", help="an ONNX model file (.onnx)")
    ap.add_argument("--batch", type=int, help="the first dimension of graph inputs where it is symbolic")
    ap.add_argument("--dim", action="append", default=[], metavar="NAME=VALUE",
                    help="give the symbolic dimension NAME a value (repeatable)")
    ap.add_argument("--params", action="store_true", help="add initializers and constants, live for the whole run")
    ap.add_argument("--latency", default="none", choices=LATENCY_MODES,
                    help="none (default) or flops (estimated from shapes at "
                         f"{graphkit.FLOPS_PER_SECOND / 1e9:g} GFLOP/s)")
    ap.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    a = ap.parse_args(argv)
    if a.batch is not None and a.batch < 1:
        ap.error(f"--batch must be at least 1, got {a.batch}")
    dims = {}
    for d in a.dim:
        try:
            name, value = parse_dim(d)
        except ValueError:
            ap.error(f"--dim wants NAME=VALUE with VALUE a positive integer, got '{d}'")
        dims[name] = value
    if not os.path.isfile(a.model):
        ap.error(f"{a.model}: no such file")
    try:
        try:
            model = onnx.load(a.model)
        except Exception as e:
            raise ExportError(f"cannot read an ONNX model: {str(e).strip()[:200] or type(e).__name__}")
        graph = export(model, a.batch, dims, a.params, a.latency)
    except ExportError as e:
        print(f"onnx2memtris: {a.model}: {e}", file=sys.stderr)
        return 1
    graphkit.write_compact(graph, a.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
