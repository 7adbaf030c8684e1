#!/usr/bin/env python3
"""seed_reference.py: the seed's own scheduler (seed 001, sections 2.2 and 3.2),
a faithful heapq implementation, for timing memtris against it end to end:
json.load the file, map Ids to indices, build adj (defaultdict(list)),
indegree, changes and types, then run the heap loop. Prints the peak.

  python3 seed_reference.py FILE [--order]   (--order also prints the Ids)
"""
import heapq
import json
import sys
from collections import defaultdict


def min_peak_schedule(data):
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


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        data = json.load(f)
    order, peak = min_peak_schedule(data)
    if len(order) != len(data["Nodes"]):
        sys.exit("cycle: only %d of %d nodes scheduled" % (len(order), len(data["Nodes"])))
    print("nodes %d peak %d" % (len(order), peak))
    if "--order" in sys.argv[2:]:
        print(" ".join(map(str, order)))


if __name__ == "__main__":
    main()
