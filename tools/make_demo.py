#!/usr/bin/env python3
"""make_demo.py: writes samples/demo.json, the built-in demo graph: a small
CNN-like network (a stem, two inception-style blocks with three branches each,
a residual add and a classifier) in the exporter's shape: one ALLOC per tensor,
ready when its op's inputs are, and a FREE after the tensor's last reader.
FIFO allocates all of a block's branch buffers at once; priority order runs
one branch at a time, so its peak is visibly lower."""
import json
import sys

KiB, MiB = 1024, 1024 * 1024
nodes, edges = [], []
producer = {}   # buffer -> compute node that writes it
readers = {}    # buffer -> compute nodes that read it
size_of = {}


def node(**kw):
    kw["Id"] = len(nodes)
    nodes.append(kw)
    return kw["Id"]


def op(name, opname, inputs, out_size):
    """An op reading `inputs` (buffers) and writing a new buffer of out_size."""
    buf = len(size_of) + 1
    size_of[buf] = out_size
    alloc = node(Op="ALLOC", Size=out_size, BufId=buf, Name=f"{name}.out")
    for b in inputs:                     # ready when the op's inputs are
        if b in producer:
            edges.append([producer[b], alloc])
    c = node(Op=opname, Name=name, Inputs=list(inputs) + [buf])
    edges.append([alloc, c])
    for b in inputs:
        if b in producer:
            edges.append([producer[b], c])
        readers.setdefault(b, []).append(c)
    producer[buf] = c
    return buf


def frees(final):
    for buf in sorted(size_of):
        if buf == final:
            continue
        f = node(Op="FREE", BufId=buf, Name=f"free b{buf}")
        edges.append([producer[buf], f])
        for r in readers.get(buf, []):
            edges.append([r, f])


x = len(size_of) + 1
size_of[x] = 1 * MiB
inp = node(Op="ALLOC", Size=1 * MiB, BufId=x, Name="input")
producer[x] = node(Op="Input", Name="input", Inputs=[x])
edges.append([inp, producer[x]])

stem = op("stem.conv", "Conv2d", [x], 2 * MiB)
h = stem
for blk in (1, 2):
    p = f"block{blk}"
    b1 = op(f"{p}.b1.conv1x1", "Conv2d", [h], 1 * MiB)
    b2a = op(f"{p}.b2.reduce", "Conv2d", [h], 2 * MiB)
    b2 = op(f"{p}.b2.conv3x3", "Conv2d", [b2a], 1 * MiB)
    b3a = op(f"{p}.b3.pool", "MaxPool2d", [h], 1536 * KiB)
    b3 = op(f"{p}.b3.conv1x1", "Conv2d", [b3a], 512 * KiB)
    cat = op(f"{p}.concat", "cat", [b1, b2, b3], 2 * MiB + 512 * KiB)
    proj = op(f"{p}.proj", "Conv2d", [cat], 2 * MiB)
    h = op(f"{p}.add", "add", [proj, h], 2 * MiB)
pool = op("head.avgpool", "AdaptiveAvgPool2d", [h], 8 * KiB)
fc = op("head.fc", "Linear", [pool], 4 * KiB)
out = node(Op="Output", Name="output", Inputs=[fc])
edges.append([producer[fc], out])
frees(final=fc)
f = node(Op="FREE", BufId=fc, Name="free output")
edges.append([out, f])

json.dump({"Nodes": nodes, "Edges": edges}, sys.stdout, indent=None, separators=(", ", ": "))
sys.stdout.write("\n")
