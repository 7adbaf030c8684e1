#!/usr/bin/env python3
"""inplace_chain.py: a training step of L layers whose ReLUs change their input in place,
as a memtris graph on standard output (for bench/budget_inplace.sh).

Usage: bench/inplace_chain.py L

Forward layer i: conv_i reads the activation a_{i-1} and the weight w_i and makes c_i (1 MiB,
Latency 1.0-2.0 ms); relu__i changes c_i in place ("InPlace", 0.1 ms): a_i is c_i after the
change. Backward, from the last layer: threshold_backward reads the gradient and a_i, makes
gr_i; convolution_backward reads gr_i, a_{i-1} and w_i, makes the gradient of a_{i-1} and of
w_i (kept). Every activation is read again by the backward, so a budget under the peak needs
a ReLU's output made again: by conv_i, then relu__i (the versions of a buffer changed in
place)."""
import json
import sys


def main():
    layers = int(sys.argv[1])
    mib = 1 << 20
    nodes, edges = [], []
    ids = iter(range(10**9))
    bufs = iter(range(1, 10**9))

    def alloc(name, size):
        b, i = next(bufs), next(ids)
        nodes.append({"Id": i, "Op": "ALLOC", "Size": size, "BufId": b, "Name": name})
        return b, i

    def compute(op, name, inputs, lat, phase, writes=(), made=(), inplace=()):
        i = next(ids)
        n = {"Id": i, "Op": op, "Name": name, "Inputs": list(inputs), "Latency": lat,
             "Phase": phase}
        if inplace:
            n["InPlace"] = list(inplace)
        nodes.append(n)
        for a in writes:  # its ALLOCs
            edges.append([a, i])
        for m in made:  # what made what it reads
            edges.append([m, i])
        return i

    x, xa = alloc("input", mib)
    inp = compute("Input", "input", [x], 0, "forward", writes=[xa])
    act, maker = [x], [inp]
    weights = []
    for i in range(1, layers + 1):
        w, wa = alloc(f"w{i}", 64 << 10)
        wn = compute("Input", f"w{i}", [w], 0, "forward", writes=[wa])
        weights.append((w, wn))
        c, ca = alloc(f"conv{i}.out", mib)
        cv = compute("convolution", f"conv{i}", [act[-1], w, c], 1.0 + (i % 5) / 4, "forward",
                     writes=[ca], made=[maker[-1], wn])
        r = compute("relu_", f"relu_{i}", [c], 0.1, "forward", made=[cv], inplace=[c])
        act.append(c)
        maker.append(r)
    g, ga = alloc("loss.grad", mib)
    gm = compute("ones_like", "loss.grad", [act[-1], g], 0.1, "backward", writes=[ga],
                 made=[maker[-1]])
    frees = []
    for i in range(layers, 0, -1):
        gr, gra = alloc(f"relu{i}.grad", mib)
        tb = compute("threshold_backward", f"threshold_backward{i}", [g, act[i], gr], 0.2,
                     "backward", writes=[gra], made=[gm, maker[i]])
        frees.append((g, tb))
        frees.append((act[i], tb))
        w, wn = weights[i - 1]
        gi, gia = alloc(f"a{i - 1}.grad", mib)
        gw, gwa = alloc(f"w{i}.grad", 64 << 10)
        cb = compute("convolution_backward", f"convolution_backward{i}",
                     [gr, act[i - 1], w, gi, gw], 2.0, "backward", writes=[gia, gwa],
                     made=[tb, maker[i - 1], wn])
        frees.append((gr, cb))
        g, gm = gi, cb
    frees.append((g, gm))
    frees.append((act[0], gm))
    for b, after in frees:
        i = next(ids)
        nodes.append({"Id": i, "Op": "FREE", "BufId": b})
        edges.append([after, i])
    json.dump({"Nodes": nodes, "Edges": edges}, sys.stdout)


if __name__ == "__main__":
    main()
