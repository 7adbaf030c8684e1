#!/usr/bin/env python3
"""minimalloc2json.py: turns a MiniMalloc problem (CSV: id,lower,upper,size; a buffer of size
bytes live on [lower, upper)) into a memtris graph whose every schedule is one chain of ALLOC
and FREE events in time order, so `memtris plan --align 1` places exactly that problem.

At each time the FREEs of the buffers ending there come before the ALLOCs of those starting
there (half-open lifetimes: [0, 5) and [5, 9) may share addresses); ties by id. Each event
depends on the one before it. Usage: minimalloc2json.py PROBLEM.csv [OUT.json] (default
standard output)."""
import csv
import json
import sys


def convert(rows, source):
    bufs = []
    for line, row in rows:
        try:
            bid, lo, hi, size = (int(row[k]) for k in ("id", "lower", "upper", "size"))
        except (KeyError, TypeError, ValueError):
            sys.exit(f"{source}:{line}: expected integers id,lower,upper,size")
        if lo >= hi or size < 0 or bid < 0:
            sys.exit(f"{source}:{line}: buffer {bid} has an empty lifetime or a negative size")
        bufs.append((bid, lo, hi, size))
    # (time, 0 = FREE before 1 = ALLOC, id)
    events = [(hi, 0, bid, 0) for bid, lo, hi, size in bufs]
    events += [(lo, 1, bid, size) for bid, lo, hi, size in bufs]
    events.sort()
    nodes, edges = [], []
    for i, (t, kind, bid, size) in enumerate(events):
        if kind:
            nodes.append({"Id": i, "Op": "ALLOC", "Size": size, "BufId": bid,
                          "Name": f"alloc {bid} @{t}"})
        else:
            nodes.append({"Id": i, "Op": "FREE", "BufId": bid, "Name": f"free {bid} @{t}"})
        if i:
            edges.append([i - 1, i])
    return {"Nodes": nodes, "Edges": edges}


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: minimalloc2json.py PROBLEM.csv [OUT.json]")
    src = sys.argv[1]
    with open(src, newline="") as f:
        reader = csv.DictReader(f)
        g = convert(((reader.line_num, row) for row in reader), src)
    text = json.dumps(g, separators=(",", ":")) + "\n"
    if len(sys.argv) == 3:
        with open(sys.argv[2], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
