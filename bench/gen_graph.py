#!/usr/bin/env python3
"""gen_graph.py: writes a synthetic memtris JSON graph (chain or random DAG) of
exactly N nodes for the benchmark; deterministic for a given --seed.

  chain   ALLOC b0, op0, then for each k >= 1: ALLOC bk, op k (reads b(k-1),
          writes bk), FREE b(k-1); a single path, about 1 edge per node.
  random  an irregular DAG of compute ops. Op k reads the outputs of 1..3 of
          the last --window ops; its output buffer is created by an ALLOC that
          depends on the producers of those inputs, the op depends on its ALLOC
          and on its producers, and each buffer is FREEd after its producer and
          every reader: about 3 edges per node.

Sizes are log-uniform from 256 B to 16 MiB (multiples of 256). Every FREE
depends by a path on its ALLOC and node Ids only grow along edges, so there
is no cycle. Python standard library only; output is written in chunks.
"""
import argparse
import random
import sys

OPS = ("Matmul", "Conv2d", "Add", "Relu", "LayerNorm", "Softmax", "Gelu", "Mul",
       "Attention", "Concat")
CHUNK = 20000          # nodes (or edges) per write


def draw_size(rng):
    # log-uniform over [2^8, 2^24], rounded to 256 bytes
    size = int(2.0 ** rng.uniform(8.0, 24.0))
    return max(256, size - size % 256)


class Writer:
    """Node text goes straight to the file; edge text is kept in joined chunks
    (Edges follow Nodes in the document) and written at the end."""

    def __init__(self, out):
        self.out = out
        self.nodes = []
        self.nnodes = 0
        self.edges = []
        self.edge_chunks = []
        self.nedges = 0
        out.write('{"Nodes": [\n')

    def alloc(self, size, buf):
        self._node('{"Id": %d, "Op": "ALLOC", "Size": %d, "BufId": %d}' % (self.nnodes, size, buf))
        return self.nnodes - 1

    def free(self, buf):
        self._node('{"Id": %d, "Op": "FREE", "BufId": %d}' % (self.nnodes, buf))
        return self.nnodes - 1

    def compute(self, op, inputs):
        ins = ", ".join(map(str, inputs))
        self._node('{"Id": %d, "Op": "%s", "Inputs": [%s]}' % (self.nnodes, op, ins))
        return self.nnodes - 1

    def _node(self, text):
        self.nodes.append(text)
        self.nnodes += 1
        if len(self.nodes) >= CHUNK:
            self._flush_nodes()

    def _flush_nodes(self):
        if not self.nodes:
            return
        if self.nnodes > len(self.nodes):      # not the first chunk
            self.out.write(",\n")
        self.out.write(",\n".join(self.nodes))
        self.nodes = []

    def edge(self, u, v):
        assert u < v, (u, v)
        self.edges.append("[%d, %d]" % (u, v))
        self.nedges += 1
        if len(self.edges) >= CHUNK:
            self.edge_chunks.append(",\n".join(self.edges))
            self.edges = []

    def finish(self):
        self._flush_nodes()
        if self.edges:
            self.edge_chunks.append(",\n".join(self.edges))
        self.out.write('\n],\n"Edges": [\n')
        for i, chunk in enumerate(self.edge_chunks):
            if i:
                self.out.write(",\n")
            self.out.write(chunk)
        self.out.write("\n]}\n")


def gen_chain(w, n, rng):
    # Per op 3 nodes (ALLOC, compute, FREE of the previous buffer); the last
    # buffer is freed at the end. Any remainder becomes extra compute nodes.
    ops = max(1, n // 3)
    last = None

    def link(node):
        nonlocal last
        if last is not None:
            w.edge(last, node)
        last = node

    link(w.alloc(draw_size(rng), 0))
    link(w.compute(rng.choice(OPS), []))
    for k in range(1, ops):
        link(w.alloc(draw_size(rng), k))
        link(w.compute(rng.choice(OPS), [k - 1]))
        link(w.free(k - 1))
    while w.nnodes < n - 1:
        link(w.compute("Identity", [ops - 1]))
    link(w.free(ops - 1))


def gen_random(w, n, rng, window):
    # Op k has nodes A_k (ALLOC of buffer k), C_k (compute) and later F_k.
    # Buffer j can be read by ops j+1 .. j+window, so F_j is emitted once op
    # j+window exists (or at the end), with edges from C_j and all readers.
    ops = max(1, n // 3)
    extra = n - 3 * ops
    comp = [0] * ops                  # node index of C_k
    readers = [None] * ops            # node indices of C of readers of buffer k
    counts = (1, 2, 2, 3, 3, 3)       # 1..3 inputs, mean 2.33 -> ~3 edges per node
    for k in range(ops):
        lo = max(0, k - window)
        avail = k - lo
        ins = rng.sample(range(lo, k), min(rng.choice(counts), avail)) if avail else []
        ins.sort()
        a = w.alloc(draw_size(rng), k)
        for j in ins:
            w.edge(comp[j], a)        # the output is allocated once its inputs exist
        c = w.compute(rng.choice(OPS), ins)
        w.edge(a, c)
        for j in ins:
            w.edge(comp[j], c)        # data dependency
            readers[j].append(c)
        comp[k] = c
        readers[k] = []
        j = k - window                # no later op can read buffer j
        if j >= 0:
            emit_free(w, j, comp, readers)
    for j in range(max(0, ops - window), ops):
        if extra and j == ops - 1:
            # remainder: compute nodes reading the last buffer before its FREE
            prev = comp[j]
            for _ in range(extra):
                x = w.compute("Identity", [j])
                w.edge(prev, x)
                readers[j].append(x)
                prev = x
        emit_free(w, j, comp, readers)


def emit_free(w, j, comp, readers):
    f = w.free(j)
    w.edge(comp[j], f)
    for r in readers[j]:
        w.edge(r, f)
    readers[j] = None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=("chain", "random"))
    ap.add_argument("nodes", type=int, help="number of nodes (at least 3)")
    ap.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--window", type=int, default=16, help="random: inputs come from the last W ops")
    a = ap.parse_args()
    if a.nodes < 3:
        ap.error("nodes must be at least 3")
    rng = random.Random(a.seed)
    out = sys.stdout if a.output == "-" else open(a.output, "w", encoding="ascii", buffering=1 << 20)
    w = Writer(out)
    if a.kind == "chain":
        gen_chain(w, a.nodes, rng)
    else:
        gen_random(w, a.nodes, rng, a.window)
    w.finish()
    assert w.nnodes == a.nodes, (w.nnodes, a.nodes)
    if out is not sys.stdout:
        out.close()
    print("%s: %d nodes, %d edges" % (a.output, w.nnodes, w.nedges), file=sys.stderr)


if __name__ == "__main__":
    main()
