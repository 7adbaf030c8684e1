#!/usr/bin/env python3
"""test_assign_streams.py: the fork rule of tools/graphkit.py (assign_streams,
set_streams) and tools/assign_streams.py on a hand-made graph whose streams
are written out below: a chain, a residual's downsample, a join, a copy to the
host, a node with no predecessor, an edge that goes backwards in Nodes, and
the refusals. No torch needed. Usage: test_assign_streams.py SRCDIR"""
import copy
import json
import os
import subprocess
import sys
import tempfile

src = os.path.abspath(sys.argv[1])
tool = os.path.join(src, "tools", "assign_streams.py")
sys.path.insert(0, os.path.join(src, "tools"))
import graphkit  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pycheck import check, finish  # noqa: E402


def A(i, b):
    return {"Id": i, "Op": "ALLOC", "Size": 1024 * b, "BufId": b}


def C(i, op, name, inputs):
    return {"Id": i, "Op": op, "Name": name, "Inputs": inputs, "Latency": 0.25}


# Walk order = Id order here. Lines: conv1, bn, add, fc, mul and Output on
# stream 0's; ds, relu, ds2 and late are side branches (lines 1 to 4).
G = {"Nodes": [
    A(0, 1), C(1, "Input", "x", [1]),                 # no compute predecessor: 0
    A(2, 2), C(3, "Conv2d", "conv1", [1, 2]),         # Input's first consumer: 0
    A(4, 3), C(5, "Conv2d", "ds", [1, 3]),            # Input's second consumer: fork 1
    A(6, 4), C(7, "BatchNorm2d", "bn", [2, 4]),       # conv1's first: 0
    A(8, 5), C(9, "add", "add", [4, 3, 5]),           # first of bn (line 0) and ds (line 1): 0
    A(10, 6), C(11, "cpu", "cpu", [1, 6]),            # data movement: 1, nobody's consumer
    A(12, 7), C(13, "ReLU", "relu", [6, 7]),          # through cpu to Input, consumed: fork 2
    A(14, 8), C(15, "Linear", "fc", [5, 8]),          # add's first: 0
    A(16, 9), C(17, "Const", "const", [9]),           # no compute predecessor: 0
    A(18, 10), C(19, "mul", "mul", [8, 7, 9, 10]),    # first of fc (0), relu (2), const (0): 0
    C(20, "Output", "output", [10]),                  # mul's first: 0
    C(21, "Conv2d", "ds2", [8]),                      # fc's second consumer: fork 3
    {"Id": 22, "Op": "FREE", "BufId": 1},
    C(23, "late", "late", [5]),                       # through the FREE: all consumed: fork 4
], "Edges": [[0, 1], [1, 2], [2, 3], [1, 3], [1, 4], [4, 5], [1, 5], [3, 6], [6, 7], [3, 7],
             [7, 8], [5, 8], [8, 9], [7, 9], [5, 9], [1, 10], [10, 11], [1, 11], [11, 12], [12, 13],
             [11, 13], [9, 14], [14, 15], [9, 15], [16, 17], [15, 18], [13, 18], [17, 18], [18, 19],
             [15, 19], [13, 19], [17, 19], [19, 20], [15, 21], [1, 22], [3, 22], [5, 22], [11, 22],
             [22, 23], [9, 23]],
     "Comment": "hand-made"}
# streams -> {Id: stream}: side lines 1, 2, 3, 4 go round robin over 1..N-1.
WANT = {
    3: {1: 0, 3: 0, 5: 1, 7: 0, 9: 0, 11: 1, 13: 2, 15: 0, 17: 0, 19: 0, 20: 0, 21: 1, 23: 2},
    2: {1: 0, 3: 0, 5: 1, 7: 0, 9: 0, 11: 1, 13: 1, 15: 0, 17: 0, 19: 0, 20: 0, 21: 1, 23: 1},
    1: {1: 0, 3: 0, 5: 0, 7: 0, 9: 0, 11: 1, 13: 0, 15: 0, 17: 0, 19: 0, 20: 0, 21: 0, 23: 0},
    64: {1: 0, 3: 0, 5: 1, 7: 0, 9: 0, 11: 1, 13: 2, 15: 0, 17: 0, 19: 0, 20: 0, 21: 3, 23: 4},
}
for n, want in WANT.items():
    got = graphkit.assign_streams(G, n)
    check(got == want, f"--streams {n}: {got}")

# The same graph with Output listed first (an edge backwards in Nodes): the
# walk is the topological order nearest the list, the answer the same.
back = copy.deepcopy(G)
back["Nodes"].insert(0, back["Nodes"].pop(next(i for i, x in enumerate(back["Nodes"]) if x["Id"] == 20)))
check(graphkit.assign_streams(back, 3) == WANT[3], "an edge backwards in Nodes: the same streams")

# set_streams: with N > 1 a Stream on every compute node, none on ALLOC/FREE;
# with 1 only on the copy; an old Stream is replaced or removed.
g = copy.deepcopy(G)
g["Nodes"][0]["Stream"] = 5      # an ALLOC's: removed
g["Nodes"][3]["Stream"] = 7      # conv1's: replaced
graphkit.set_streams(g, 2)
check({x["Id"]: x["Stream"] for x in g["Nodes"] if "Stream" in x} == WANT[2], "set_streams 2")
graphkit.set_streams(g, 1)
check({x["Id"]: x["Stream"] for x in g["Nodes"] if "Stream" in x} == {11: 1}, "set_streams 1: only the copy")

for bad, words in ((0, "from 1 to 64"), (65, "from 1 to 64")):
    try:
        graphkit.assign_streams(G, bad)
        check(False, f"streams {bad} refused")
    except ValueError as e:
        check(all(w in str(e) for w in words.split()), f"streams {bad}: {e}")
for edges, words in (([[0, 99]], "[0, 99]"), ([[1, 3], [3, 1]], "cycle")):
    try:
        graphkit.assign_streams({"Nodes": G["Nodes"], "Edges": edges}, 2)
        check(False, f"edges {edges} refused")
    except ValueError as e:
        check(words in str(e), f"edges {edges}: {e}")

# The command: everything else kept (order, fields, edges, other keys).
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "g.json")
    with open(path, "w") as f:
        json.dump(G, f)
    r = subprocess.run([sys.executable, tool, path, "--streams", "3", "-o", os.path.join(tmp, "o.json")],
                       capture_output=True, text=True)
    check(r.returncode == 0 and r.stdout == "" and r.stderr == "", f"assign_streams.py -o: {r.stderr}")
    out = json.load(open(os.path.join(tmp, "o.json")))
    check({x["Id"]: x["Stream"] for x in out["Nodes"] if "Stream" in x} == WANT[3], "the command's streams")
    for x in out["Nodes"]:
        x.pop("Stream", None)
    check(out == G, "everything but Stream is kept, in order")
    r = subprocess.run([sys.executable, tool, "-", "--streams", "2"], input=json.dumps(G),
                       capture_output=True, text=True)
    check(r.returncode == 0 and json.loads(r.stdout)["Nodes"][5].get("Stream") == 1, "stdin to stdout")
    for args, rc, words in ((["--streams", "0"], 2, "--streams wants an integer from 1 to 64"),
                            (["--streams", "x"], 2, "invalid int"), ([], 2, "--streams"),
                            (["--streams", "2", "nope.json"], 1, "nope.json")):
        r = subprocess.run([sys.executable, tool, *(args if "nope.json" in args else [path, *args])],
                           capture_output=True, text=True, cwd=tmp)
        check(r.returncode == rc and words in r.stderr, f"{args}: status {r.returncode}, {r.stderr.strip()}")
    with open(path, "w") as f:
        f.write('{"Nodes": [{"Id": 0}]}')
    r = subprocess.run([sys.executable, tool, path, "--streams", "2"], capture_output=True, text=True)
    check(r.returncode == 1 and "g.json" in r.stderr and '"Op"' in r.stderr, f"not a graph: {r.stderr.strip()}")

finish()
