#!/usr/bin/env python3
"""fix_order.py: a memtris graph with its given order fixed: an edge from each compute node to
the next one by Id, so that any order the solvers may take is the given one (exact run on the
given order's model). Usage: fix_order.py IN.json > OUT.json"""
import json
import sys

g = json.load(open(sys.argv[1]))
comp = sorted(n["Id"] for n in g["Nodes"] if n["Op"] not in ("ALLOC", "FREE"))
have = {tuple(e) for e in g["Edges"]}
g["Edges"] += [[a, b] for a, b in zip(comp, comp[1:]) if (a, b) not in have]
json.dump(g, sys.stdout)
