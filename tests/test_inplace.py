#!/usr/bin/python3
"""test_inplace.py: tools/graphkit.py's --inplace post-pass (inplace) and
free_after_last_use on hand-made graphs: which outputs become aliases of a
dying input and which do not (an input read later, a graph input, a weight, a
graph output, a buffer that lives on, a different size, an op not in the
list, two outputs), the edges and FREEs it moves, chains, op_key; each result
validated by memtris, its Ids a topological order, its peak in Id order (what
policy given runs) and memtris's computed by hand. No torch or onnx needed.
Usage: test_inplace.py MEMTRIS SRCDIR"""
import copy
import json
import os
import subprocess
import sys

exe, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, finish  # noqa: E402

sys.path.insert(0, os.path.join(src, "tools"))
import graphkit  # noqa: E402


def memtris(g, *args):
    return subprocess.run([exe, *args, "-"], input=json.dumps(g), capture_output=True, text=True)


def valid(g, what):
    v = memtris(g, "validate")
    check(v.returncode == 0 and v.stderr == "", f"{what} validates cleanly: {v.stderr.strip()[:300]}")


def peak(g, policy="exact"):
    return json.loads(memtris(g, "schedule", "-p", policy, "-f", "json").stdout)["peak"]


def given_peak(g):
    """The peak of running g in ascending Id (policy given); None when an
    edge goes backwards."""
    nodes = sorted(g["Nodes"], key=lambda n: n["Id"])
    pos = {n["Id"]: i for i, n in enumerate(nodes)}
    if any(pos[u] >= pos[v] for u, v in g["Edges"]):
        return None
    size = {n["BufId"]: n["Size"] for n in nodes if n["Op"] == "ALLOC"}
    live = top = 0
    for n in nodes:
        live += size[n["BufId"]] if n["Op"] == "ALLOC" else -size[n["BufId"]] if n["Op"] == "FREE" else 0
        top = max(top, live)
    return top


def by_name(g, name):
    return next(n for n in g["Nodes"] if n.get("Name") == name)


def allocs(g):
    return sorted(n["Name"] for n in g["Nodes"] if n["Op"] == "ALLOC")


def edges(g):
    return {tuple(e) for e in g["Edges"]}


def build(ops, inputs=(("x", 10),), outputs=None, weights=()):
    """A graph in the exporters' shape: ops are (name, Op, [inputs], size);
    FREEs right after the last use (graphkit.free_after_last_use)."""
    g = graphkit.Graph()
    buf = {}
    for name, size in weights:     # a weight: an ALLOC read by the ops, freed after Output
        buf[name] = g._buffer(size, name)
        g.node(Op="ALLOC", Size=size, BufId=buf[name], Name=f"{name}.out", Category="weight")
        g.producer[buf[name]] = len(g.nodes) - 1
    for name, size in inputs:
        buf[name] = g.input(size, name)
    for name, op, ins, size in ops:
        buf[name] = g.op(name, op, [buf[i] for i in ins], size)
    out = g.output([buf[o] for o in (outputs or [ops[-1][0]])])
    graph = {"Nodes": g.nodes, "Edges": g.edges}
    for name, _ in weights:
        free = next(n["Id"] for n in g.nodes if n["Op"] == "FREE" and n["BufId"] == buf[name])
        graph["Edges"].append([out, free])
    return graphkit.free_after_last_use(graph), buf


def both(ops, **kw):
    g, buf = build(ops, **kw)
    h = copy.deepcopy(g)
    n = graphkit.inplace(h)
    return g, h, n, buf


# free_after_last_use: each FREE right after its buffer's last use.
g, buf = build([("conv", "Conv", ["x"], 100), ("relu", "Relu", ["conv"], 100), ("fc", "Gemm", ["relu"], 10)])
order = [n["Name"] for n in sorted(g["Nodes"], key=lambda n: n["Id"])]
check(order == ["x.out", "x", "conv.out", "conv", "free x", "relu.out", "relu", "free conv", "fc.out", "fc",
                "free relu", "output", "free fc"], f"FREEs right after the last use, Ids 0..n-1: {order}")
check([n["Id"] for n in g["Nodes"]] == list(range(len(g["Nodes"]))), "Ids renumbered 0, 1, ...")
valid(g, "the reordered chain")
check(given_peak(g) == 200, f"in Id order: conv and relu live together, 200 B: {given_peak(g)}")

# The rule: relu writes over conv's buffer, which dies there.
g, h, n, buf = both([("conv", "Conv", ["x"], 100), ("relu", "Relu", ["conv"], 100), ("fc", "Gemm", ["relu"], 10)])
check(n == 1 and allocs(h) == ["conv.out", "fc.out", "x.out"], f"relu's ALLOC is gone: {n}, {allocs(h)}")
b = buf["conv"]
check(by_name(h, "relu")["Inputs"] == [b] and by_name(h, "fc")["Inputs"] == [b, buf["fc"]],
      f"relu writes conv's buffer and fc reads it: {by_name(h, 'relu')}, {by_name(h, 'fc')}")
check(by_name(h, "relu").get("InPlace") == [b] and "InPlace" not in by_name(h, "fc"),
      f"relu lists conv's buffer in InPlace, fc nothing: {by_name(h, 'relu')}")
frees = [x for x in h["Nodes"] if x["Op"] == "FREE" and x["BufId"] == b]
check(len(frees) == 1 and frees[0]["Name"] == "free conv" and frees[0]["Id"] == by_name(h, "fc")["Id"] + 1,
      f"conv's one FREE moved right after fc, the alias's last use: {frees}")
check((by_name(h, "fc")["Id"], frees[0]["Id"]) in edges(h), "fc -> conv's FREE")
valid(h, "the in-place chain")
check(given_peak(h) == 110 and peak(h) == 110 and peak(g) == 200,
      f"peak 200 B -> 110 B (given {given_peak(h)}, exact {peak(h)}; before {peak(g)})")
check(graphkit.inplace(copy.deepcopy(h)) == 0, "a second pass finds nothing more")

# A chain: conv -> relu -> add (with a dying bias-sized side) -> sigmoid: one buffer.
g, h, n, buf = both([("conv", "Conv", ["x"], 100), ("relu", "ReLU", ["conv"], 100),
                     ("side", "Conv", ["x"], 100), ("add", "add.Tensor", ["relu", "side"], 100),
                     ("sig", "aten::sigmoid", ["add"], 100), ("fc", "Gemm", ["sig"], 10)])
check(n == 3 and allocs(h) == ["conv.out", "fc.out", "side.out", "x.out"], f"three aliases: {n}, {allocs(h)}")
check(by_name(h, "sig")["Inputs"] == [buf["conv"]], f"sigmoid writes conv's buffer: {by_name(h, 'sig')}")
valid(h, "the in-place chain of three")
check(given_peak(h) == 210 and peak(g) == 300 and peak(h) == 210,
      f"x, conv and side meet at add, 210 B: given {given_peak(h)}, exact {peak(h)} (before {peak(g)}, 300 B)")
g2, h2, n2, _ = both([("conv", "Conv", ["x"], 100), ("relu", "ReLU", ["conv"], 100),
                      ("sig", "sigmoid", ["relu"], 100), ("fc", "Gemm", ["sig"], 10)])
check(n2 == 2 and peak(g2) == 200 and peak(h2) == 110, f"relu then sigmoid: 200 B -> 110 B: {peak(h2)}")

# Not the last reader: conv is read again by add (a residual); add may write
# over relu's or conv's buffer (both die there): the first in its Inputs.
g, h, n, buf = both([("conv", "Conv", ["x"], 100), ("relu", "Relu", ["conv"], 100),
                     ("add", "Add", ["relu", "conv"], 100), ("fc", "Gemm", ["add"], 10)])
check(n == 1 and "relu.out" in allocs(h) and "add.out" not in allocs(h),
      f"relu keeps its own buffer (conv is read later), add writes over relu's: {allocs(h)}")
check(by_name(h, "add")["Inputs"] == [buf["relu"], buf["conv"]], f"add: {by_name(h, 'add')}")
valid(h, "the residual")

# The other readers of the overwritten buffer must come first: two branches
# read conv, the later one (in Id order) overwrites it.
g, h, n, buf = both([("conv", "Conv", ["x"], 100), ("p", "Gemm", ["conv"], 10), ("q", "Relu", ["conv"], 100),
                     ("cat", "Concat", ["p", "q"], 110)])
check(n == 1 and by_name(h, "q")["Inputs"] == [buf["conv"]], f"q writes over conv's buffer: {allocs(h)}")
check((by_name(h, "p")["Id"], by_name(h, "q")["Id"]) in edges(h),
      "p, conv's other reader, gets an edge to q (write after read): every order memtris picks is right")
valid(h, "the fork")

# Kept buffers: a graph input, a weight, a graph output, one never freed.
_, h, n, _ = both([("relu", "Relu", ["x"], 10), ("fc", "Gemm", ["relu"], 10)])
check(n == 0, "a graph input is never overwritten")
_, h, n, _ = both([("conv", "Conv", ["x"], 100), ("relu", "Relu", ["conv"], 100)])
check(n == 0, "a graph output is never an alias (Output reads it)")
_, h, n, _ = both([("add", "Add", ["x", "w"], 10), ("fc", "Gemm", ["add"], 10)], weights=[("w", 10)])
check(n == 0, "neither a graph input nor a weight (Category weight) is overwritten")
g, buf = build([("add", "Add", ["x", "w"], 10), ("fc", "Gemm", ["add"], 10)], weights=[("w", 10)])
del by_name(g, "w.out")["Category"]
check(graphkit.inplace(g) == 0, "a buffer freed after a node that does not touch it lives on (a weight)")
g, buf = build([("conv", "Conv", ["x"], 100), ("relu", "Relu", ["conv"], 100), ("fc", "Gemm", ["relu"], 10)])
by_name(g, "conv.out")["Category"] = "optimizer"
check(graphkit.inplace(g) == 0, "Category optimizer is kept")
g, buf = build([("conv", "Conv", ["x"], 100), ("relu", "Relu", ["conv"], 100), ("fc", "Gemm", ["relu"], 10)])
gone = by_name(g, "free conv")["Id"]
g["Nodes"] = [x for x in g["Nodes"] if x["Id"] != gone]
g["Edges"] = [e for e in g["Edges"] if gone not in e]
check(graphkit.inplace(copy.deepcopy(g)) == 0, "a buffer never freed lives on")

# Sizes and ops: a broadcast input is smaller; Conv, Concat and two outputs are no candidates.
_, h, n, buf = both([("conv", "Conv", ["x"], 100), ("bias", "Gemm", ["x"], 4),
                     ("add", "Add", ["bias", "conv"], 100), ("fc", "Gemm", ["add"], 10)])
check(n == 1 and by_name(h, "add")["Inputs"] == [buf["bias"], buf["conv"]] and "bias.out" in allocs(h),
      f"a broadcast add writes over its same-size input, not the small one: {by_name(h, 'add')}")
_, h, n, _ = both([("conv", "Conv", ["x"], 100), ("c2", "Conv", ["conv"], 100), ("fc", "Gemm", ["c2"], 10)])
check(n == 0, "Conv is not elementwise")
g = {"Nodes": [{"Id": 0, "Op": "ALLOC", "Size": 8, "BufId": 1}, {"Id": 1, "Op": "Input", "Inputs": [1]},
               {"Id": 2, "Op": "ALLOC", "Size": 8, "BufId": 2}, {"Id": 3, "Op": "Conv", "Inputs": [1, 2]},
               {"Id": 4, "Op": "ALLOC", "Size": 8, "BufId": 3}, {"Id": 5, "Op": "ALLOC", "Size": 8, "BufId": 4},
               {"Id": 6, "Op": "Relu", "Inputs": [2, 3, 4]}, {"Id": 7, "Op": "FREE", "BufId": 2},
               {"Id": 8, "Op": "Output", "Inputs": [3, 4]}, {"Id": 9, "Op": "FREE", "BufId": 1},
               {"Id": 10, "Op": "FREE", "BufId": 3}, {"Id": 11, "Op": "FREE", "BufId": 4}],
     "Edges": [[0, 1], [1, 2], [1, 3], [2, 3], [3, 4], [3, 5], [3, 6], [4, 6], [5, 6], [6, 7], [3, 7], [6, 8],
               [8, 9], [1, 9], [8, 10], [8, 11]]}
check(graphkit.inplace(g) == 0, "an op that makes two buffers is no candidate")
check([graphkit.op_key(o) for o in ("Relu", "ReLU", "relu.default", "aten::add.Tensor", "HardSwish")] ==
      ["relu", "relu", "relu", "add", "hardswish"], "op_key: lower case, no aten:: or .overload")
check("relu" in graphkit.INPLACE_ELEMENTWISE_OPS and "reshape" in graphkit.INPLACE_RESHAPE_OPS and
      "conv" not in graphkit.INPLACE_OPS and "sum" not in graphkit.INPLACE_OPS, "the op lists")
finish()
