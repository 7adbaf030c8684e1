#!/usr/bin/env python3
"""make_demo.py: writes samples/demo.json, the built-in demo graph: a small
CNN-like network (a stem, two inception-style blocks with three branches each,
a residual add and a classifier). FIFO allocates all of a block's branch
buffers at once; priority order runs one branch at a time, so its peak is
visibly lower. Usage: make_demo.py > samples/demo.json"""
from graphkit import Graph

KiB, MiB = 1024, 1024 * 1024
g = Graph()
x = g.input(1 * MiB)
h = g.op("stem.conv", "Conv2d", [x], 2 * MiB)
for blk in (1, 2):
    p = f"block{blk}"
    b1 = g.op(f"{p}.b1.conv1x1", "Conv2d", [h], 1 * MiB)
    b2a = g.op(f"{p}.b2.reduce", "Conv2d", [h], 2 * MiB)
    b2 = g.op(f"{p}.b2.conv3x3", "Conv2d", [b2a], 1 * MiB)
    b3a = g.op(f"{p}.b3.pool", "MaxPool2d", [h], 1536 * KiB)
    b3 = g.op(f"{p}.b3.conv1x1", "Conv2d", [b3a], 512 * KiB)
    cat = g.op(f"{p}.concat", "cat", [b1, b2, b3], 2 * MiB + 512 * KiB)
    proj = g.op(f"{p}.proj", "Conv2d", [cat], 2 * MiB)
    h = g.op(f"{p}.add", "add", [proj, h], 2 * MiB)
pool = g.op("head.avgpool", "AdaptiveAvgPool2d", [h], 8 * KiB)
fc = g.op("head.fc", "Linear", [pool], 4 * KiB)
g.output([fc])
g.dump()
