"""workspaces.py: the temporary memory inside each op of a training step
(fx2memtris.py --train --measure). Some aten kernels allocate scratch memory
that they free before they return: oneDNN's convolution_backward on the CPU
takes four times a layer's weight, cuDNN its workspace. No tensor of the
graph holds it, yet the allocator peaks with it: on resnet18 (batch 8,
64x64, this project's AMD EPYC) the step's measured peak is 23.8% above the
graph's own without it.

measure() runs the step's aten ops once in the graph's given order on real
tensors (tools/planexec.py, one thread, the CPU) under torch.profiler and,
for each compute node, takes the allocator's highest reading inside the op
less its reading once the op has returned (outputs made): the op's
workspace. add() puts every workspace of at least MIN_BYTES into the graph
as a buffer of its own: an ALLOC (Category workspace, Name "OP.workspace")
ready when the op is, listed in the op's Inputs and as its "Workspace", and
a FREE right after it; Ids stay the execution order. memtris then counts it
as the op runs, in every order and budget (a rerun makes it again)."""
import torch

import planexec

# Smaller temporaries (a scalar, a reduction's partial sums) are left out:
# they change no peak by more than a page.
MIN_BYTES = 4096


def measure(gm, ex, graph, flat, threads=1):
    """{compute node Id: workspace bytes} of the graph's given order."""
    bd = planexec.Binding(gm, ex, graph)
    events = planexec.order_events(bd, [nd["Id"] for nd in graph["Nodes"]])
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        _, m = planexec.measured(bd, lambda: [t.detach().clone() for t in flat], events,
                                 torch.device("cpu"), {})
    finally:
        torch.set_num_threads(before)
    return {i: m["allocator_peak"][k] - m["allocator"][k]
            for k, (kind, _, i) in enumerate(events) if kind == "run"}


def add(graph, ws, min_bytes=MIN_BYTES):
    """Each workspace ws[Id] >= min_bytes as an ALLOC/FREE pair around its
    op, in place; Ids renumbered to stay the execution order. Returns the
    graph."""
    nodes = graph["Nodes"]
    by_id = {nd["Id"]: nd for nd in nodes}
    preds = {}
    for u, v in graph["Edges"]:
        preds.setdefault(v, []).append(u)
    next_buf = max((nd["BufId"] for nd in nodes if "BufId" in nd), default=0) + 1
    order, extra = [], []
    for nd in nodes:
        w = ws.get(nd["Id"], 0)
        if w < min_bytes or nd["Op"] in ("ALLOC", "FREE"):
            order.append(nd)
            continue
        name = nd.get("Name", nd["Op"])
        alloc = {"Op": "ALLOC", "Size": w, "BufId": next_buf, "Name": f"{name}.workspace", "Category": "workspace"}
        free = {"Op": "FREE", "BufId": next_buf, "Name": f"free {name}.workspace"}
        nd["Inputs"] = nd.get("Inputs", []) + [next_buf]
        nd["Workspace"] = next_buf
        order += [alloc, nd, free]
        extra.append((alloc, nd, free))
        next_buf += 1
    new = {id(nd): k for k, nd in enumerate(order)}
    old_to_new = {i: new[id(nd)] for i, nd in by_id.items()}
    edges = {(old_to_new[u], old_to_new[v]) for u, v in graph["Edges"]}
    for alloc, nd, free in extra:
        a, c, f = new[id(alloc)], new[id(nd)], new[id(free)]
        for p in preds.get(nd["Id"], []):     # ready when the op is
            edges.add((old_to_new[p], a))
        edges |= {(a, c), (c, f)}
    for k, nd in enumerate(order):
        nd["Id"] = k
    graph["Nodes"] = order
    graph["Edges"] = [list(e) for e in sorted(edges)]
    return graph
