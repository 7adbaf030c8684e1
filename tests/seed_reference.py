#!/usr/bin/env python3
"""seed_reference.py: the priority order (man memtris, POLICIES: Kahn's algorithm
with a min-heap, Python's heapq, over (change, type, id)) in Python, the one
reference memtris is held to:
  seed_reference.py MEMTRIS [COUNT] [SEED]
      differential test of `memtris schedule` against it and a plain Kahn FIFO,
      on random valid graphs with shuffled, sparse ids, shuffled node order and
      repeated edges (a ctest entry; test_corrupt.py imports seed_priority);
  seed_reference.py --peak FILE [--order]
      the seed's loop as written, on a file: prints the peak (and the order);
      bench/run.sh times memtris against it."""
import heapq
import json
import random
import subprocess
import sys
from collections import defaultdict, deque


def seed_priority(g):
    """The seed's loop, with ids mapped through dicts instead of list indices."""
    nodes = g["Nodes"]
    adj = defaultdict(list)
    indegree = {n["Id"]: 0 for n in nodes}
    seen = set()
    for u, v in g["Edges"]:
        if (u, v) in seen:          # a repeated edge counts once (memtris warns)
            continue
        seen.add((u, v))
        adj[u].append(v)
        indegree[v] += 1
    size = {n["BufId"]: n["Size"] for n in nodes if n["Op"] == "ALLOC"}
    changes, types = {}, {}
    for n in nodes:
        if n["Op"] == "ALLOC":
            changes[n["Id"]], types[n["Id"]] = n["Size"], 2
        elif n["Op"] == "FREE":
            changes[n["Id"]], types[n["Id"]] = -size[n["BufId"]], 0
        else:
            changes[n["Id"]], types[n["Id"]] = 0, 1
    ready = []
    for i in sorted(indegree):
        if indegree[i] == 0:
            heapq.heappush(ready, (changes[i], types[i], i))
    schedule, memory, current_mem, max_live = [], [], 0, 0
    while ready:
        change, _, nid = heapq.heappop(ready)
        schedule.append(nid)
        current_mem += change
        memory.append(current_mem)
        max_live = max(max_live, current_mem)
        for nei in adj[nid]:
            indegree[nei] -= 1
            if indegree[nei] == 0:
                heapq.heappush(ready, (changes[nei], types[nei], nei))
    return schedule, memory, max_live


def kahn_fifo(g):
    adj = defaultdict(list)
    indegree = {n["Id"]: 0 for n in g["Nodes"]}
    seen = set()
    for u, v in g["Edges"]:
        if (u, v) not in seen:
            seen.add((u, v))
            adj[u].append(v)
            indegree[v] += 1
    size = {n["BufId"]: n["Size"] for n in g["Nodes"] if n["Op"] == "ALLOC"}
    change = {n["Id"]: n["Size"] if n["Op"] == "ALLOC" else -size[n["BufId"]] if n["Op"] == "FREE" else 0
              for n in g["Nodes"]}
    q = deque(i for i in sorted(indegree) if indegree[i] == 0)
    order, memory, cur, peak = [], [], 0, 0
    while q:
        u = q.popleft()
        order.append(u)
        cur += change[u]
        memory.append(cur)
        peak = max(peak, cur)
        for v in adj[u]:
            indegree[v] -= 1
            if indegree[v] == 0:
                q.append(v)
    return order, memory, peak


def random_graph(rng):
    """Ops read earlier buffers; each buffer is ALLOCed when its op could run and
    FREEd after its last reader; extra random forward edges; ids sparse and
    shuffled; some buffers leak; some sizes tie."""
    nops = rng.randint(1, 40)
    ids = rng.sample(range(10 ** 6), 4 * nops + 4)
    nodes, edges, bufs = [], [], []
    order = []   # a topological order, to add random forward edges
    sizes = [0, 64, 4096, 4096, 1 << 20, rng.randint(1, 1 << 30), 1 << 40]
    for i in range(nops):
        ins = rng.sample(bufs, min(len(bufs), rng.randint(0, 3))) if bufs else []
        a, c = ids.pop(), ids.pop()
        b = len(bufs) + 1
        nodes.append({"Id": a, "Op": "ALLOC", "Size": rng.choice(sizes), "BufId": b})
        nodes.append({"Id": c, "Op": rng.choice(["Conv", "Add", "MatMul"]), "Inputs": [x["buf"] for x in ins] + [b]})
        for x in ins:
            edges.append([x["prod"], a])
            edges.append([x["prod"], c])
            x["readers"].append(c)
        edges.append([a, c])
        bufs.append({"buf": b, "alloc": a, "prod": c, "readers": []})
        order += [a, c]
    for x in bufs:
        if rng.random() < 0.1:
            continue   # leaked: never freed
        f = ids.pop()
        nodes.append({"Id": f, "Op": "FREE", "BufId": x["buf"]})
        edges.append([x["prod"], f])
        for r in x["readers"]:
            edges.append([r, f])
        order.append(f)
    for _ in range(rng.randint(0, nops)):
        i, j = sorted(rng.sample(range(len(order)), 2)) if len(order) > 1 else (0, 0)
        if i != j:
            edges.append([order[i], order[j]])
    edges += rng.sample(edges, min(len(edges), rng.randint(0, 3)))   # repeats
    rng.shuffle(nodes)
    rng.shuffle(edges)
    return {"Nodes": nodes, "Edges": edges}


def seed_as_written(data):
    """The priority loop as a plain Python listing of it reads (man memtris,
    POLICIES, priority): Ids mapped to list indices, adj a defaultdict(list),
    an indegree list, heapq over (change, type, index), repeated edges kept;
    for timing memtris against it (bench/run.sh). Returns (ids, peak)."""
    nodes = data["Nodes"]
    index = {}                                   # Id -> index in nodes
    for i, node in enumerate(nodes):
        index[node["Id"]] = i

    adj = defaultdict(list)
    indegree = [0] * len(nodes)
    for u, v in data["Edges"]:
        adj[index[u]].append(index[v])
        indegree[index[v]] += 1

    sizes = {}                                   # BufId -> Size of its ALLOC
    for node in nodes:
        if node["Op"] == "ALLOC":
            sizes[node["BufId"]] = node["Size"]

    changes = {}
    types = {}
    for i, node in enumerate(nodes):
        op = node["Op"]
        if op == "ALLOC":
            changes[i] = node["Size"]
            types[i] = 2
        elif op == "FREE":
            changes[i] = -sizes[node["BufId"]]
            types[i] = 0
        else:
            changes[i] = 0
            types[i] = 1

    ready = []
    for i in range(len(nodes)):
        if indegree[i] == 0:
            heapq.heappush(ready, (changes[i], types[i], i))

    schedule = []
    current_mem = 0
    max_live = 0
    while ready:
        change, _, nid = heapq.heappop(ready)
        schedule.append(nid)
        current_mem += change
        max_live = max(max_live, current_mem)
        for nei in adj[nid]:
            indegree[nei] -= 1
            if indegree[nei] == 0:
                heapq.heappush(ready, (changes[nei], types[nei], nei))
    return [nodes[i]["Id"] for i in schedule], max_live


def peak_main(args):
    with open(args[0]) as f:
        data = json.load(f)
    order, peak = seed_as_written(data)
    if len(order) != len(data["Nodes"]):
        sys.exit("cycle: only %d of %d nodes scheduled" % (len(order), len(data["Nodes"])))
    print("nodes %d peak %d" % (len(order), peak))
    if "--order" in args[1:]:
        print(" ".join(map(str, order)))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == "--peak":
        peak_main(sys.argv[2:])
        return
    exe = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    passed = failed = 0
    for t in range(count):
        g = random_graph(rng)
        text = json.dumps(g)
        for pol, ref in (("priority", seed_priority), ("fifo", kahn_fifo)):
            want_order, want_mem, want_peak = ref(g)
            p = subprocess.run([exe, "schedule", "-", "--policy", pol, "--format", "json"], input=text,
                               capture_output=True, text=True)
            ok = p.returncode == 0
            if ok:
                got = json.loads(p.stdout)
                ok = (got["order"] == want_order and got["memory"] == want_mem and got["peak"] == want_peak
                      and got["nodes"] == len(g["Nodes"]) and got["policy"] == pol)
            if ok:
                passed += 1
            else:
                failed += 1
                print(f"FAIL: graph {t} policy {pol}: memtris status {p.returncode}, stderr {p.stderr[:300]!r}")
                if failed == 1:
                    print(text)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
