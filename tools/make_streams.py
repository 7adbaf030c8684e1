#!/usr/bin/env python3
"""make_streams.py: writes samples/prefetch.json, the teaching graph for time:
four layers whose weights (8 MiB each) are copied to the device on stream 1
while the layers compute on stream 0 (copy 2 ms, layer 3 ms). FIFO allocates
every weight at once and the copies run ahead of the layers (makespan 14 ms,
a 41 MiB peak); priority allocates a weight only when nothing else is ready,
so each copy waits for the layer before it (20 ms, 17 MiB): the memory the
seed's order saves is paid in time, as its FAQ (Q3) says it may be.
Usage: make_streams.py > samples/prefetch.json"""
import json
import sys

MiB = 1024 * 1024
nodes, edges = [], []


def node(**kw):
    kw["Id"] = len(nodes)
    nodes.append(kw)
    return kw["Id"]


buf = 0


def alloc(size, name):
    global buf
    buf += 1
    return buf, node(Op="ALLOC", Size=size, BufId=buf, Name=name)


x, ax = alloc(1 * MiB, "input.out")
prod = node(Op="Input", Name="input", Inputs=[x])
edges.append([ax, prod])
cur = x
for i in range(4):
    w, aw = alloc(8 * MiB, f"layer{i}.weight")
    copy = node(Op="copy_", Name=f"layer{i}.weight.copy", Inputs=[w], Stream=1, Latency=2.0)
    edges.append([aw, copy])
    y, ay = alloc(4 * MiB, f"layer{i}.out")
    edges.append([prod, ay])
    conv = node(Op="Conv2d", Name=f"layer{i}", Inputs=[cur, w, y], Latency=3.0)
    edges += [[ay, conv], [copy, conv], [prod, conv]]
    for b in (w, cur):
        edges.append([conv, node(Op="FREE", BufId=b, Name=f"free layer{i}.in" if b == cur
                                 else f"free layer{i}.weight")])
    cur, prod = y, conv
out = node(Op="Output", Name="output", Inputs=[cur])
edges.append([prod, out])
edges.append([out, node(Op="FREE", BufId=cur, Name="free output")])
json.dump({"Nodes": nodes, "Edges": edges}, sys.stdout, separators=(", ", ": "))
sys.stdout.write("\n")
