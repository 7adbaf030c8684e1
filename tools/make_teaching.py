#!/usr/bin/env python3
"""make_teaching.py: writes the small teaching graphs of samples/:
  fanout.json            FIFO and priority differ a lot (8 wide branches);
  greedy-not-optimal.json the seed's greedy priority is not optimal.
Usage: make_teaching.py DIR"""
import os
import sys

from graphkit import Graph

KiB, MiB = 1024, 1024 * 1024


def fanout():
    """One input feeds 8 branches; each expands to 4 MiB and reduces to 64 KiB,
    then a concat. FIFO queues all 8 expansions' ALLOCs before any branch runs;
    priority finishes a branch (and frees its 4 MiB) before starting the next."""
    g = Graph()
    x = g.input(64 * KiB)
    outs = []
    for i in range(8):
        e = g.op(f"branch{i}.expand", "Conv2d", [x], 4 * MiB)
        outs.append(g.op(f"branch{i}.reduce", "Conv2d", [e], 64 * KiB))
    g.output([g.op("concat", "cat", outs, 512 * KiB)])
    return g


def greedy_not_optimal():
    """An accumulator of 1 MiB that lives to the end, and an independent
    10 MiB temporary. Greedy takes the smaller ALLOC first, so the accumulator
    is live while the temporary exists: peak 11 MiB. Running the temporary's
    work first gives 10 MiB."""
    g = Graph()
    acc = g.node(Op="ALLOC", Size=1 * MiB, BufId=1, Name="acc.out")
    keep = g.node(Op="Fill", Name="acc", Inputs=[1])
    tmp = g.node(Op="ALLOC", Size=10 * MiB, BufId=2, Name="tmp.out")
    work = g.node(Op="Conv2d", Name="tmp", Inputs=[2])
    free_tmp = g.node(Op="FREE", BufId=2, Name="free tmp")
    out = g.node(Op="Output", Name="output", Inputs=[1])
    free_acc = g.node(Op="FREE", BufId=1, Name="free acc")
    g.edges += [[acc, keep], [tmp, work], [work, free_tmp], [keep, out], [free_tmp, out],
                [out, free_acc], [keep, free_acc]]
    return g


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    for name, make in (("fanout", fanout), ("greedy-not-optimal", greedy_not_optimal)):
        with open(os.path.join(d, name + ".json"), "w") as f:
            make().dump(f)


if __name__ == "__main__":
    main()
