"""graphkit.py: a small builder of memtris graphs in the exporter's shape, for
the hand-made samples (make_demo.py, make_teaching.py): one ALLOC per op
output, ready when the op's inputs are; the op; a FREE after the last reader."""
import json
import sys


class Graph:
    def __init__(self):
        self.nodes, self.edges = [], []
        self.producer, self.readers, self.size, self.name = {}, {}, {}, {}

    def node(self, **kw):
        kw["Id"] = len(self.nodes)
        self.nodes.append(kw)
        return kw["Id"]

    def input(self, size, name="input"):
        """The network input: an ALLOC and an Input node that writes it."""
        buf = self._buffer(size, name)
        a = self.node(Op="ALLOC", Size=size, BufId=buf, Name=f"{name}.out")
        self.producer[buf] = self.node(Op="Input", Name=name, Inputs=[buf])
        self.edges.append([a, self.producer[buf]])
        return buf

    def op(self, name, opname, inputs, out_size):
        """An op reading the buffers `inputs` and writing a new buffer."""
        buf = self._buffer(out_size, name)
        alloc = self.node(Op="ALLOC", Size=out_size, BufId=buf, Name=f"{name}.out")
        for b in inputs:
            self.edges.append([self.producer[b], alloc])
        c = self.node(Op=opname, Name=name, Inputs=list(inputs) + [buf])
        self.edges.append([alloc, c])
        for b in inputs:
            self.edges.append([self.producer[b], c])
            self.readers.setdefault(b, []).append(c)
        self.producer[buf] = c
        return buf

    def output(self, bufs):
        """A final Output node reading bufs, then every buffer's FREE."""
        out = self.node(Op="Output", Name="output", Inputs=list(bufs))
        for b in bufs:
            self.edges.append([self.producer[b], out])
            self.readers.setdefault(b, []).append(out)
        for b in sorted(self.size):
            f = self.node(Op="FREE", BufId=b, Name=f"free {self.name[b]}")
            self.edges.append([self.producer[b], f])
            for r in self.readers.get(b, []):
                self.edges.append([r, f])
        return out

    def _buffer(self, size, name):
        buf = len(self.size) + 1
        self.size[buf], self.name[buf] = size, name
        return buf

    def dump(self, f=sys.stdout):
        json.dump({"Nodes": self.nodes, "Edges": self.edges}, f, separators=(", ", ": "))
        f.write("\n")
