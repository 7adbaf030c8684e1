#!/usr/bin/python3
"""fx2memtris.py: exports a PyTorch nn.Module to memtris's JSON graph format, by
torch.fx symbolic tracing and shape propagation.

Usage: fx2memtris.py MODEL [--input-shape C,H,W] [--batch N] [--dtype float32]
                     [--params] [-o FILE]
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
"""
import argparse
import importlib
import json
import operator
import sys

try:
    import torch
    import torch.fx
    from torch.fx.passes.shape_prop import ShapeProp, TensorMetadata
except ImportError as e:   # pragma: no cover - reported to the user
    sys.exit(f"fx2memtris: cannot import torch ({e}); install python3-torch and run with /usr/bin/python3")

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


class ExportError(Exception):
    pass


def load_model(spec):
    if ":" in spec:
        mod_name, attr = spec.split(":", 1)
        try:
            obj = getattr(importlib.import_module(mod_name), attr)
        except (ImportError, AttributeError) as e:
            raise ExportError(f"cannot load {spec}: {e}")
    else:
        import torchvision
        obj = getattr(torchvision.models, spec, None)
        if obj is None or not callable(obj):
            raise ExportError(f"'{spec}' is not a torchvision model name (e.g. resnet50) nor module:Factory")
    model = obj() if callable(obj) else obj
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


class Exporter:
    def __init__(self, gm, dtype, params):
        self.gm, self.dtype, self.with_params = gm, dtype, params
        self.nodes, self.edges = [], []
        self.buf_size, self.buf_name = {}, {}
        self.touch = {}          # buffer -> nodes that touched it (for its FREE)
        self.writer = {}         # buffer -> last node that wrote it
        self.readers = {}        # buffer -> readers since the last write
        self.value = {}          # fx node -> buffer, or tuple of buffers, or None
        self.producer = {}       # fx node -> memtris node whose result it is
        self.param_buf = {}      # parameter/buffer name -> buffer

    # ------------------------------------------------------------ emitting
    def node(self, **kw):
        kw["Id"] = len(self.nodes)
        self.nodes.append(kw)
        return kw["Id"]

    def edge(self, u, v):
        if u is not None and u != v:
            self.edges.append([u, v])

    def new_buffer(self, meta, name, deps):
        if not isinstance(meta, TensorMetadata):
            raise ExportError(f"op {name} produces a value without tensor metadata; cannot size it")
        numel = 1
        for d in meta.shape:
            numel *= int(d)
        elem = (torch.empty((), dtype=self.dtype) if meta.dtype.is_floating_point
                else torch.empty((), dtype=meta.dtype)).element_size()
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
        for d in self.deps_of(inputs):
            self.edge(d, c)
        self.read(c, bufs)
        for b in sorted(self.touch):
            f = self.node(Op="FREE", BufId=b, Name=f"free {self.buf_name[b]}")
            for t in dict.fromkeys(self.touch[b]):
                self.edge(t, f)
            if b in self.param_buf.values():
                self.edge(c, f)


def export(model, shape, dtype, params):
    try:
        gm = torch.fx.symbolic_trace(model)
    except Exception as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ExportError(f"torch.fx cannot trace {type(model).__name__}: {first}")
    inputs = [n for n in gm.graph.nodes if n.op == "placeholder"]
    if len(inputs) != 1:
        raise ExportError(f"{type(model).__name__} takes {len(inputs)} inputs; fx2memtris feeds exactly one")
    example = torch.randn(*shape)
    try:
        with torch.no_grad():
            ShapeProp(gm).propagate(example)
    except Exception as e:
        msg = str(e).strip().splitlines()
        raise ExportError(f"running {type(model).__name__} on an input of shape {list(shape)} failed: "
                          f"{' '.join(msg[:2]) if msg else type(e).__name__}")
    return Exporter(gm, dtype, params).run(example)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="fx2memtris.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("model", help="torchvision model name, or module.path:ClassOrFactory")
    ap.add_argument("--input-shape", default="3,224,224", help="input shape without the batch (default 3,224,224)")
    ap.add_argument("--batch", type=int, default=1, help="batch size (default 1)")
    ap.add_argument("--dtype", default="float32", choices=sorted(DTYPES), help="element type of floating tensors")
    ap.add_argument("--params", action="store_true", help="add parameters and buffers, live for the whole run")
    ap.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    a = ap.parse_args(argv)
    try:
        shape = [a.batch] + [int(x) for x in a.input_shape.split(",") if x.strip()]
    except ValueError:
        ap.error(f"--input-shape must be comma-separated integers, got '{a.input_shape}'")
    if a.batch < 1 or any(d < 1 for d in shape):
        ap.error("--batch and every dimension of --input-shape must be at least 1")
    try:
        sys.path.insert(0, ".")
        graph = export(load_model(a.model), shape, DTYPES[a.dtype], a.params)
    except ExportError as e:
        print(f"fx2memtris: {e}", file=sys.stderr)
        return 1
    text = json.dumps(graph, separators=(",", ":"))
    if a.output == "-":
        sys.stdout.write(text + "\n")
    else:
        with open(a.output, "w") as f:
            f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
