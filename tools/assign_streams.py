#!/usr/bin/env python3
"""assign_streams.py: spreads the compute nodes of any memtris JSON graph over
streams 0..N-1 by the fork rule (graphkit.assign_streams: a chain stays on its
stream, the side branch of a fork takes the next side stream, data-movement
ops run on stream 1), as `memtris gen --streams N` and `fx2memtris.py
--streams N` do. No torch needed.

Usage: assign_streams.py GRAPH.json --streams N [-o OUT]   ('-': standard input/output)

Everything else of the graph is kept: the nodes in their order with their
fields, the edges, any other top-level field. With N > 1 every compute node
gets a "Stream"; with N 1 only data-movement ops do (stream 1), and the other
"Stream" fields are removed. The output has one node a line, eight edges a
line. Exit status: 0, 1 for a graph it cannot read or an -o it cannot write,
2 for a usage error (-o '' too); each error is one line."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import graphkit  # noqa: E402


def dump(graph, f):
    """The graph with one node a line, eight edges a line (as memtris gen)."""
    d = json.JSONEncoder(separators=(", ", ": ")).encode
    f.write('{"Nodes": [\n' + ",\n".join(map(d, graph["Nodes"])) + "\n],\n")
    edges = [f"[{e[0]}, {e[1]}]" if len(e) == 2 and all(type(x) is int for x in e) else d(e)
             for e in graph.get("Edges", [])]
    f.write('"Edges": [\n' + ",\n".join(", ".join(edges[i:i + 8]) for i in range(0, len(edges), 8)) + "\n]")
    for k, v in graph.items():
        if k not in ("Nodes", "Edges"):
            f.write(f",\n{d(k)}: {d(v)}")
    f.write("}\n")


def main(argv=None):
    ap = graphkit.ArgumentParser(prog="assign_streams.py", name="assign_streams.py",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("graph", help="a memtris JSON graph, or - for standard input")
    ap.add_argument("--streams", type=int, required=True,
                    help=f"streams 0..N-1, N from 1 to {graphkit.MAX_STREAMS}")
    ap.add_argument("-o", "--output", default="-", help="output file (default: standard output)")
    a = ap.parse_args(argv)
    if not 1 <= a.streams <= graphkit.MAX_STREAMS:
        ap.error(f"--streams wants an integer from 1 to {graphkit.MAX_STREAMS}, not {a.streams}")
    graphkit.check_output_option(ap, a.output)
    name = "standard input" if a.graph == "-" else a.graph
    try:
        if a.graph == "-":
            graph = json.load(sys.stdin)
        else:
            with open(a.graph) as f:
                graph = json.load(f)
        if not isinstance(graph, dict) or not isinstance(graph.get("Nodes"), list) or \
                not all(isinstance(n, dict) and "Id" in n and "Op" in n for n in graph["Nodes"]):
            raise ValueError('not a memtris graph: it needs "Nodes", each with an "Id" and an "Op"')
        graphkit.set_streams(graph, a.streams)
    except RecursionError:
        graphkit.say("assign_streams.py", f"{name}: nested too deeply to be a memtris graph")
        return 1
    except OSError as e:
        graphkit.say("assign_streams.py", f"{name}: {e.strerror or e}")
        return 1
    except (ValueError, KeyError, TypeError, IndexError) as e:
        graphkit.say("assign_streams.py", f"{name}: {e}")
        return 1
    return graphkit.write_output("assign_streams.py", a.output, lambda f: dump(graph, f))


if __name__ == "__main__":
    sys.exit(graphkit.run_tool("assign_streams.py", main))
